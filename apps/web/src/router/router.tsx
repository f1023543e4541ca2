import type { ReactElement } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { DashboardLayout } from '../layouts/DashboardLayout';
import { DefaultLayout } from '../layouts/DefaultLayout';
import { DeskLayout } from '../layouts/DeskLayout';
import { rootLoader } from './rootLoader';
import { RootRoute } from './RootRoute';
import { RouteErrorScreen } from './RouteErrorScreen';
import { findRoute, NOT_FOUND_ROUTE, ROUTES, type LayoutKind, type RouteRecord } from './routes';

/** The 页面不存在 screen (the /404 page), also used for unknown paths and routes not built yet. */
const NotFoundPage = findRoute('/404')?.page ?? NOT_FOUND_ROUTE.page ?? (() => null);

function pageElement(record: RouteRecord) {
  const Page = record.page;
  // A route without a page shows 页面不存在 (after the guards ran in the root loader).
  return Page ? <Page /> : <NotFoundPage />;
}

/** Dialog sub-paths (e.g. /signup/privacy) nest under their page so the page stays mounted. */
function isDialogRoute(record: RouteRecord): boolean {
  return Boolean(record.meta.dialog);
}

function toRouteObject(record: RouteRecord): RouteObject {
  const dialogs = ROUTES.filter((child) => child.parentPath === record.path && isDialogRoute(child));
  return {
    path: record.path,
    element: pageElement(record),
    handle: { path: record.path },
    children: dialogs.length
      ? dialogs.map((dialog) => ({ path: dialog.path, element: null, handle: { path: dialog.path } }))
      : undefined,
  };
}

const LAYOUTS: Record<LayoutKind, ReactElement> = {
  desk: <DeskLayout />,
  dashboard: <DashboardLayout />,
  default: <DefaultLayout />,
};

/** The React Router route objects built from the route table. */
export function buildRouteObjects(): RouteObject[] {
  const byLayout: Record<LayoutKind, RouteObject[]> = { desk: [], dashboard: [], default: [] };
  for (const record of ROUTES) {
    if (isDialogRoute(record)) continue;
    byLayout[record.meta.layout].push(toRouteObject(record));
  }
  byLayout.default.push({ path: '*', element: <NotFoundPage /> });

  return [
    {
      id: 'root',
      element: <RootRoute />,
      errorElement: <RouteErrorScreen />,
      hydrateFallbackElement: <PageLoading fullScreen />,
      loader: rootLoader,
      // The guards run on every navigation, not only when params change.
      shouldRevalidate: () => true,
      children: (Object.keys(byLayout) as LayoutKind[]).map((layout) => ({
        element: LAYOUTS[layout],
        children: byLayout[layout],
      })),
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}

export type AppRouter = ReturnType<typeof createAppRouter>;
