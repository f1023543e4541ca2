import { useLocation } from 'react-router';
import { ErrorScreen } from './ErrorScreen';
import { ERROR_TEXTS } from './texts';

/** 页面不存在: /404, unknown paths and routes whose page is not built. Names the path that was asked for. */
export default function NotFoundPage() {
  const { pathname } = useLocation();
  const description = pathname === '/404' ? undefined : ERROR_TEXTS.notFound.withPath(pathname);
  return <ErrorScreen kind="notFound" description={description} />;
}
