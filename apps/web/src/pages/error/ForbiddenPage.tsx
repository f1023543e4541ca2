import { ErrorScreen } from './ErrorScreen';

export default function ForbiddenPage() {
  return <ErrorScreen kind="forbidden" />;
}
