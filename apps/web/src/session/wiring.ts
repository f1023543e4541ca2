import type { QueryClient } from '@tanstack/react-query';
import { configureApiClient } from '../api/client';
import { loginRedirectPath } from '../router/guards';
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
      clearSession();
      queryClient.removeQueries();
      const router = getRouter();
      const target = router.state.navigation.location ?? router.state.location;
      if (target.pathname.toLowerCase() === '/login') return;
      void router.navigate(loginRedirectPath(target), { replace: true });
    },
  });
}
