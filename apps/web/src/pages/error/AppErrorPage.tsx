import { ErrorScreen } from './ErrorScreen';

export default function AppErrorPage() {
  return <ErrorScreen kind="appError" reload />;
}
