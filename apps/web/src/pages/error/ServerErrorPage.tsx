import { ErrorScreen } from './ErrorScreen';

export default function ServerErrorPage() {
  return <ErrorScreen kind="serverError" reload />;
}
