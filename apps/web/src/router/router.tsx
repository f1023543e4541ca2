import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { createBrowserRouter, useRouteError, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { ERROR_TEXTS } from '../pages/error/texts';
import { tryAutoReload } from './autoReload';
import { rootLoader } from './rootLoader';
import { RootRoute } from './RootRoute';
import { findRoute, NOT_FOUND_ROUTE, ROUTES, type LayoutKind, type RouteRecord } from './routes';

/** The 页面不存在 screen (the /404 page), also used for unknown paths and routes not built yet. */
const NotFoundPage = findRoute('/404')?.page ?? NOT_FOUND_ROUTE.page ?? (() => null);

/**
 * Shown when even the error screen's chunk cannot be fetched (offline, or a release removed it): a
 * route chunk of an old release still reloads the page (at most once per guard interval).
 */
function ErrorScreenUnavailable() {
  const error = useRouteError();
  useEffect(() => {
    try {
      tryAutoReload(error, window.sessionStorage, () => window.location.reload());
    } catch {
      // sessionStorage unavailable: the message below offers the reload.
    }
  }, [error]);
  return (
    <div className="slg-error-screen" role="alert">
      <p>
        {ERROR_TEXTS.appError.description} <a href={window.location.href}>{ERROR_TEXTS.reload}</a>
      </p>
    </div>
  );
}

// The error screen draws antd's Result illustrations: fetched when an error happens, not with every page.
const RouteErrorScreen = lazy(() =>
  import('./RouteErrorScreen').then(
    (module) => ({ default: module.RouteErrorScreen }),
    () => ({ default: ErrorScreenUnavailable }),
  ),
);

/**
 * The page of a route. The router fetches its chunk together with the layout chunk and the root
 * loader (route `lazy`) and renders the loaded component directly, so nothing suspends after the first
 * paint (a Suspense fallback there would shift the layout). A route without a page shows 页面不存在
 * (after the guards ran in the root loader).
 */
function pageRoute(page: RouteRecord['page']): Pick<RouteObject, 'lazy' | 'element'> {
  const shown = page ?? NotFoundPage;
  const preload = 'preload' in shown ? shown.preload : undefined;
  if (preload) return { lazy: () => preload().then((module) => ({ Component: module.default })) };
  const Page = shown;
  return { element: <Page /> };
}

/** Dialog sub-paths (e.g. /signup/privacy) nest under their page so the page stays mounted. */
function isDialogRoute(record: RouteRecord): boolean {
  return Boolean(record.meta.dialog);
}

function toRouteObject(record: RouteRecord): RouteObject {
  const dialogs = ROUTES.filter((child) => child.parentPath === record.path && isDialogRoute(child));
  return {
    path: record.path,
    ...pageRoute(record.page),
    handle: { path: record.path },
    children: dialogs.length
      ? dialogs.map((dialog) => ({ path: dialog.path, element: null, handle: { path: dialog.path } }))
      : undefined,
  };
}

/**
 * Each layout is its own chunk, fetched with the first route that uses it: the public pages and the
 * sign-in pages do not download the console's sidebar, menus and header.
 */
const LAYOUTS: Record<LayoutKind, () => Promise<{ Component: ComponentType }>> = {
  desk: () => import('../layouts/DeskLayout').then((module) => ({ Component: module.DeskLayout })),
  dashboard: () => import('../layouts/DashboardLayout').then((module) => ({ Component: module.DashboardLayout })),
  default: () => import('../layouts/DefaultLayout').then((module) => ({ Component: module.DefaultLayout })),
};

/** The React Router route objects built from the route table. */
export function buildRouteObjects(): RouteObject[] {
  const byLayout: Record<LayoutKind, RouteObject[]> = { desk: [], dashboard: [], default: [] };
  for (const record of ROUTES) {
    if (isDialogRoute(record)) continue;
    byLayout[record.meta.layout].push(toRouteObject(record));
  }
  byLayout.default.push({ path: '*', ...pageRoute(undefined) });

  return [
    {
      id: 'root',
      element: <RootRoute />,
      errorElement: (
        <Suspense fallback={<PageLoading fullScreen />}>
          <RouteErrorScreen />
        </Suspense>
      ),
      hydrateFallbackElement: <PageLoading fullScreen />,
      loader: rootLoader,
      // The guards run on every navigation, not only when params change.
      shouldRevalidate: () => true,
      children: (Object.keys(byLayout) as LayoutKind[]).map((layout) => ({
        lazy: LAYOUTS[layout],
        children: byLayout[layout],
      })),
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}

export type AppRouter = ReturnType<typeof createAppRouter>;
