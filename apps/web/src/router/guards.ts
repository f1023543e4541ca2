/**
 * Access rules of spec §2 as pure functions over (route meta, session, location). No React here: the
 * router's root loader and root component call these, the unit tests call them directly.
 */
import { AccountType } from '@slg/shared';
import { CONSOLE_HOME_PATH, findRoute, SUB_ACCOUNT_HOME_PATH, type RouteMeta, type RouteRecord } from './routes';

export const FORBIDDEN_PATH = '/403';
export const LOGIN_PATH = '/login';
export const HOME_PATH = '/';
export const INVITE_CODE_KEY = 'invite_code';

export interface GuardLocation {
  pathname: string;
  /** With the leading `?`, or empty. */
  search: string;
}

export interface SessionSnapshot {
  /** A token exists. */
  loggedIn: boolean;
  accountType: AccountType | null;
  /** The sub-account's permission list (authority types, as `/subuser/me` names them); `null` while its info is not loaded. */
  permissions: readonly string[] | null;
}

export type AccessDecision = { type: 'allow' } | { type: 'redirect'; to: string };

export type GuardMeta = Pick<RouteMeta, 'public' | 'subAccountPage' | 'permission' | 'guestOnly'>;

const ALLOW: AccessDecision = { type: 'allow' };

function redirectTo(to: string): AccessDecision {
  return { type: 'redirect', to };
}

/** Any path with a `components` segment is refused (dialogs are not pages). */
export function hasComponentsSegment(pathname: string): boolean {
  return pathname.split('/').some((segment) => segment.toLowerCase() === 'components');
}

function isLoginPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '').toLowerCase() === LOGIN_PATH;
}

/** `/login?redirect=<path+query>` for the location the user wanted. */
export function loginRedirectPath(location: GuardLocation, signInPath: string = LOGIN_PATH): string {
  const target = `${location.pathname}${location.search}`;
  return `${signInPath}?redirect=${encodeURIComponent(target)}`;
}

/** Where a signed-out account signs in again: a sub-account at its own page. */
export const SUB_ACCOUNT_LOGIN_PATH = '/sub-account-login';

/**
 * Where to go after signing in: the `redirect` query when it is a same-site path (never another origin,
 * never back to /login), else the fallback.
 */
export function postLoginTarget(search: string, fallback: string): string {
  const redirect = new URLSearchParams(search).get('redirect');
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.includes('\\')) return fallback;
  if (isLoginPath(redirect.split(/[?#]/)[0] ?? '')) return fallback;
  return redirect;
}

/**
 * Sub-accounts (accountType 2) open only sub-account pages, routes whose permission they hold, and
 * public routes — checked only when they hold at least one permission.
 */
export function subAccountMayOpen(meta: GuardMeta, permissions: readonly string[]): boolean {
  if (permissions.length === 0) return true;
  if (meta.public || meta.subAccountPage) return true;
  return meta.permission !== undefined && permissions.includes(meta.permission);
}

/** Where a signed-in account's console starts: a sub-account on its own page. */
export function consoleHomeFor(accountType: AccountType | null): string {
  return accountType === AccountType.SUB ? SUB_ACCOUNT_HOME_PATH : CONSOLE_HOME_PATH;
}

/** Every access rule of spec §2, in order; registration is for visitors only. */
export function evaluateAccess(meta: GuardMeta, session: SessionSnapshot, location: GuardLocation): AccessDecision {
  if (hasComponentsSegment(location.pathname)) return redirectTo(FORBIDDEN_PATH);
  if (!session.loggedIn) {
    return meta.public ? ALLOW : redirectTo(loginRedirectPath(location));
  }
  if (isLoginPath(location.pathname)) return redirectTo(HOME_PATH);
  if (meta.guestOnly) return redirectTo(consoleHomeFor(session.accountType));
  if (session.accountType === AccountType.SUB && session.permissions) {
    if (!subAccountMayOpen(meta, session.permissions)) return redirectTo(FORBIDDEN_PATH);
  }
  return ALLOW;
}

/**
 * Where a menu group without a page of its own (`/ctrl-container-instances`) opens: its first menu entry
 * with a page that the session may open, as in the sidebar; null for a route with a page, a dialog
 * sub-path, or a group with nothing built (that stays 页面不存在).
 */
export function groupLandingPath(record: RouteRecord, session: SessionSnapshot): string | null {
  if (record.page || record.meta.dialog) return null;
  for (const path of record.childPaths) {
    const child = findRoute(path);
    if (!child?.page || !child.meta.sidebar) continue;
    if (child.meta.subAccountOnly && session.accountType !== AccountType.SUB) continue;
    if (evaluateAccess(child.meta, session, { pathname: child.path, search: '' }).type === 'allow') return child.path;
  }
  return null;
}

/** The `invite_code` query parameter is kept in the session storage on arrival. */
export function saveInviteCode(search: string, storage: Pick<Storage, 'setItem'>): string | null {
  const code = new URLSearchParams(search).get(INVITE_CODE_KEY)?.trim();
  if (!code) return null;
  try {
    storage.setItem(INVITE_CODE_KEY, code);
  } catch {
    return null;
  }
  return code;
}

export function readInviteCode(storage: Pick<Storage, 'getItem'>): string | null {
  try {
    return storage.getItem(INVITE_CODE_KEY) || null;
  } catch {
    return null;
  }
}

/** `${appTitle} - ${title}`, or the app title alone. */
export function documentTitle(appTitle: string, routeTitle: string | undefined): string {
  return routeTitle ? `${appTitle} - ${routeTitle}` : appTitle;
}

/** The site host plus the current path. */
export function canonicalUrl(publicUrl: string, pathname: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${pathname.startsWith('/') ? pathname : `/${pathname}`}`;
}

/** Sets `<link rel="canonical">` in the given document head. */
export function applyCanonical(doc: Document, href: string): void {
  let link = doc.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = doc.createElement('link');
    link.rel = 'canonical';
    doc.head.appendChild(link);
  }
  link.href = href;
}
