/** Session actions that combine the API with the user store (spec §4). */
import { AccountType } from '@slg/shared';
import { logout, type PhoneLoginResult } from '../api/auth';
import type { TokenPair } from '../api/client';
import { fetchSubUserMe, fetchUserInfo } from '../api/user';
import type { SessionSnapshot } from '../router/guards';
import { permissionList, useUserStore, type CurrentUser, type UserState } from '../stores/user';

export function sessionSnapshot(state: Pick<UserState, 'token' | 'accountType' | 'userInfo'> = useUserStore.getState()): SessionSnapshot {
  return {
    loggedIn: Boolean(state.token),
    accountType: state.accountType,
    permissions: permissionList(state.userInfo),
  };
}

let inflight: Promise<CurrentUser> | null = null;

/** Fetches the signed-in user's info (sub-accounts: /subuser/me) into the store; shared by callers. */
export function loadCurrentUser(): Promise<CurrentUser> {
  inflight ??= (async (): Promise<CurrentUser> => {
    const { accountType } = useUserStore.getState();
    const user: CurrentUser =
      accountType === AccountType.SUB
        ? { kind: 'sub', info: await fetchSubUserMe() }
        : { kind: 'main', info: await fetchUserInfo() };
    // The session may have ended while the call was in flight.
    if (useUserStore.getState().token) useUserStore.getState().setUserInfo(user);
    return user;
  })().finally(() => {
    inflight = null;
  });
  return inflight;
}

export function signIn(pair: TokenPair | PhoneLoginResult, accountType: AccountType = AccountType.MAIN): void {
  useUserStore.getState().setSession({ jwtToken: pair.jwtToken, refreshToken: pair.refreshToken }, accountType);
}

export function clearSession(): void {
  useUserStore.getState().clear();
}

/** Ends the session on the server (best effort) and locally. */
export async function signOut(): Promise<void> {
  const { refreshToken } = useUserStore.getState();
  try {
    if (refreshToken) await logout(refreshToken);
  } catch {
    // Signing out locally is what matters; the server drops expired sessions itself.
  } finally {
    clearSession();
  }
}
