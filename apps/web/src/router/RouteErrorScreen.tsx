import { useEffect, useState } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen } from '../pages/error/ErrorScreen';
import { tryAutoReload } from './autoReload';

/** The router's errorElement: 404 → 页面不存在, anything else → 应用错误; both offer 返回首页. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const [reloading, setReloading] = useState(false);

  useEffect(() => {
    try {
      if (tryAutoReload(error, window.sessionStorage, () => window.location.reload())) setReloading(true);
    } catch {
      // sessionStorage unavailable: show the error screen.
    }
  }, [error]);

  if (reloading) return null;
  if (isRouteErrorResponse(error) && error.status === 404) return <ErrorScreen kind="notFound" />;
  return <ErrorScreen kind="appError" reload />;
}
