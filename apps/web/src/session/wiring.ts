import type { QueryClient } from '@tanstack/react-query';
import { configureApiClient } from '../api/client';
import { AccountType } from '@slg/shared';
import { LOGIN_PATH, loginRedirectPath, SUB_ACCOUNT_LOGIN_PATH } from '../router/guards';
import type { AppRouter } from '../router/router';
import { useUserStore } from '../stores/user';
import { clearSession } from './session';

/**
 * Connects the transport to the session: the bearer token, the refreshed pair, and the 401 policy
 * (spec §8: clear the user, go to /login?redirect=<where the user was going>). Call it before the
 * router is created: the router's first loader already makes calls.
 */
export function wireApiClient(getRouter: () => AppRouter, queryClient: QueryClient): void {
  configureApiClient({
    session: {
      getToken: () => useUserStore.getState().token,
      getRefreshToken: () => useUserStore.getState().refreshToken,
      setTokens: (pair) => useUserStore.getState().setTokens(pair),
    },
    onUnauthorized: () => {
      const signInPath = useUserStore.getState().accountType === AccountType.SUB ? SUB_ACCOUNT_LOGIN_PATH : LOGIN_PATH;
      clearSession();
      queryClient.removeQueries();
      const router = getRouter();
      const target = router.state.navigation.location ?? router.state.location;
      if ([LOGIN_PATH, SUB_ACCOUNT_LOGIN_PATH].includes(target.pathname.toLowerCase())) return;
      void router.navigate(loginRedirectPath(target, signInPath), { replace: true });
    },
  });
}
