import { redirect, type LoaderFunctionArgs } from 'react-router';
import { clearSession, loadCurrentUser, sessionSnapshot } from '../session/session';
import { useUserStore } from '../stores/user';
import { evaluateAccess, groupLandingPath, loginRedirectPath, saveInviteCode, type GuardLocation } from './guards';
import { resolveRoute } from './routes';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Runs before every navigation (the root route always revalidates): keeps the invite code, applies the
 * access rules, and loads the signed-in user's info when missing — a failure ends the session and
 * sends the user to /login?redirect=…. A menu group's own path opens the group's first page.
 */
export async function rootLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const location: GuardLocation = { pathname: url.pathname, search: url.search };
  const storage = sessionStorageOrNull();
  if (storage) saveInviteCode(url.search, storage);

  const route = resolveRoute(url.pathname);
  const decision = evaluateAccess(route.meta, sessionSnapshot(), location);
  if (decision.type === 'redirect') throw redirect(decision.to);

  const { token, userInfo } = useUserStore.getState();
  if (token && !userInfo) {
    try {
      await loadCurrentUser();
    } catch {
      clearSession();
      throw redirect(loginRedirectPath(location));
    }
    // Now the sub-account permission rule can apply.
    const after = evaluateAccess(route.meta, sessionSnapshot(), location);
    if (after.type === 'redirect') throw redirect(after.to);
  }
  const landing = groupLandingPath(route, sessionSnapshot());
  if (landing) throw redirect(`${landing}${url.search}`);
  return null;
}
