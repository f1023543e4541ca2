/**
 * The console pages that exist, from the route table: what the phone-width check of the end-to-end
 * suite (e2e/tests/phone.spec.ts) opens, so a new console page is covered without touching the test.
 */
import { ROUTES, type RouteRecord } from './routes';

/** Absolute paths of the routes with a page, in the console layout, in table order. */
export function consolePagePaths(routes: readonly RouteRecord[] = ROUTES): string[] {
  return routes
    .filter((record) => record.page && record.meta.console && record.meta.layout === 'dashboard' && !record.meta.dialog)
    .map((record) => record.path);
}
