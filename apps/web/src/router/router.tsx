import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { createBrowserRouter, useRouteError, type RouteObject } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { ERROR_TEXTS } from '../pages/error/texts';
import { sessionSnapshot } from '../session/session';
import { tryAutoReload } from './autoReload';
import { evaluateAccess } from './guards';
import { rootLoader } from './rootLoader';
import { RootRoute } from './RootRoute';
import { findRoute, NOT_FOUND_ROUTE, resolveRoute, ROUTES, type LayoutKind, type RouteRecord } from './routes';

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

/** Dialog sub-paths by the page they open on. */
const DIALOGS_BY_PARENT = new Map<string, RouteRecord[]>();
for (const record of ROUTES) {
  if (!isDialogRoute(record) || !record.parentPath) continue;
  DIALOGS_BY_PARENT.set(record.parentPath, [...(DIALOGS_BY_PARENT.get(record.parentPath) ?? []), record]);
}

function toRouteObject(record: RouteRecord): RouteObject {
  const dialogs = DIALOGS_BY_PARENT.get(record.path) ?? [];
  return {
    path: record.path,
    ...pageRoute(record.page),
    children: dialogs.length ? dialogs.map((dialog) => ({ path: dialog.path, element: null })) : undefined,
  };
}

/** `/ctrl-container-instances/sshSet` → `ctrl-container-instances`. */
function topSegment(path: string): string {
  return path.split('/').find(Boolean) ?? '';
}

/**
 * Routes of the table whose page is not built yet show 页面不存在 in their layout. Rather than one
 * router entry each (React Router flattens and ranks every entry at start-up, a third of the entry
 * chunk's start-up time on a phone), they are covered by one splat per first path segment,
 * `/<segment>/*` in that segment's layout, ranked below the built pages under it. A segment whose
 * unbuilt routes use several layouts keeps one entry per route.
 */
function unbuiltRouteObjects(): { layout: LayoutKind; route: RouteObject }[] {
  const bySegment = new Map<string, RouteRecord[]>();
  for (const record of ROUTES) {
    if (record.page || isDialogRoute(record)) continue;
    const segment = topSegment(record.path);
    bySegment.set(segment, [...(bySegment.get(segment) ?? []), record]);
  }
  const routes: { layout: LayoutKind; route: RouteObject }[] = [];
  for (const [segment, records] of bySegment) {
    const layouts = new Set(records.map((record) => record.meta.layout));
    const [layout] = layouts;
    if (segment && layout && layouts.size === 1) routes.push({ layout, route: { path: `/${segment}/*`, ...pageRoute(undefined) } });
    else for (const record of records) routes.push({ layout: record.meta.layout, route: toRouteObject(record) });
  }
  return routes;
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

/**
 * Loaders of the chunks the route at `location` renders first (its layout, its page), for the start-up
 * to call before it creates the router: the router then finds them on their way, and starting their
 * fetches (the preload links of each chunk's imports cost a phone several milliseconds each) happens in
 * tasks of their own. None for a route the guards send elsewhere.
 */
export function firstRouteChunks(location: Pick<Location, 'pathname' | 'search'>): (() => Promise<unknown>)[] {
  const route = resolveRoute(location.pathname);
  const decision = evaluateAccess(route.meta, sessionSnapshot(), { pathname: location.pathname, search: location.search });
  if (decision.type === 'redirect') return [];
  const page = route.page?.preload;
  return page ? [LAYOUTS[route.meta.layout], page] : [LAYOUTS[route.meta.layout]];
}

/** The React Router route objects built from the route table. */
export function buildRouteObjects(): RouteObject[] {
  const byLayout: Record<LayoutKind, RouteObject[]> = { desk: [], dashboard: [], default: [] };
  for (const record of ROUTES) {
    if (isDialogRoute(record) || !record.page) continue;
    byLayout[record.meta.layout].push(toRouteObject(record));
  }
  for (const { layout, route } of unbuiltRouteObjects()) byLayout[layout].push(route);
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
