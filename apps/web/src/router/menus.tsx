/** Menus derived from the route table: only routes with a page, only what the session may open. */
import { subAccountMayOpen, type SessionSnapshot } from './guards';
import { AccountType, isOfferedAuthorityType } from '@slg/shared';
import { findRoute, ROUTES, type MenuIcon, type RouteRecord } from './routes';

export interface MenuEntry {
  key: string;
  label: string;
  /** Drawn by the sidebar (layouts/SidebarMenu.tsx), so the public pages do not load the console's icons. */
  icon?: MenuIcon;
  children?: MenuEntry[];
}

/**
 * Whether a sub-account's menus leave out a product it may open but not use: a public page of a
 * product whose authority it lacks (模型中心 without 模型部署), or a product whose authority cannot be
 * granted yet (模型市场) — also for a sub-account holding no permission at all, which may open any page.
 */
function productNotForSubAccount(record: RouteRecord, permissions: readonly string[]): boolean {
  const { permission, subAccountPage } = record.meta;
  if (!permission || subAccountPage || permissions.includes(permission)) return false;
  return Boolean(record.meta.public) || !isOfferedAuthorityType(permission);
}

/** Whether the session may see a menu entry for the route. */
export function visibleTo(record: RouteRecord, session: SessionSnapshot): boolean {
  if (!record.meta.public && !session.loggedIn) return false;
  if (record.meta.subAccountOnly && session.accountType !== AccountType.SUB) return false;
  if (session.accountType === AccountType.SUB && session.permissions) {
    if (productNotForSubAccount(record, session.permissions)) return false;
    return subAccountMayOpen(record.meta, session.permissions);
  }
  return true;
}

/** The console sidebar: sidebar routes with a page; groups keep `alwaysShow` parents even with one child. */
export function sidebarMenu(session: SessionSnapshot, routes: readonly RouteRecord[] = ROUTES): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const record of routes) {
    if (record.parentPath || !record.meta.sidebar || record.meta.layout !== 'dashboard') continue;
    if (!visibleTo(record, session)) continue;
    const children = record.childPaths
      .map((path) => routes.find((child) => child.path === path))
      .filter((child): child is RouteRecord => Boolean(child?.page && child.meta.sidebar && visibleTo(child, session)))
      .map((child) => ({ key: child.path, label: child.meta.title ?? child.path }));
    const icon = record.meta.icon;
    const label = record.meta.title ?? record.path;
    if (children.length > 1 || (children.length === 1 && record.meta.alwaysShow)) {
      entries.push({ key: record.path, label, icon, children });
    } else if (children.length === 1 && children[0]) {
      entries.push({ ...children[0], icon });
    } else if (record.page) {
      entries.push({ key: record.path, label, icon });
    }
  }
  return entries;
}

/** The public header navigation: `headerNav` routes with a page. */
export function headerMenu(routes: readonly RouteRecord[] = ROUTES): MenuEntry[] {
  return routes
    .filter((record) => record.page && record.meta.headerNav)
    .map((record) => ({ key: record.path, label: record.meta.title ?? record.path }));
}

/** The sidebar key to highlight for a route: its `activeMenu`, else itself. */
export function activeMenuKey(record: RouteRecord): string {
  return record.meta.activeMenu ?? record.path;
}

/** Keys of the submenus to open so that the active entry is visible. */
export function openMenuKeys(record: RouteRecord): string[] {
  const active = findRoute(activeMenuKey(record));
  return active?.parentPath ? [active.parentPath] : [];
}
