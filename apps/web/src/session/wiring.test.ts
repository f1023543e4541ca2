/** The 401 policy: the session is cleared and the user signs in again where that kind of account signs in. */
import { AccountType } from '@slg/shared';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from '../api/client';
import { createQueryClient } from '../api/queryClient';
import type { AppRouter } from '../router/router';
import { useUserStore } from '../stores/user';
import { wireApiClient } from './wiring';

const unauthorized = () => new Response(JSON.stringify({ rspcode: 40100, code: 401, rspmsg: '登录已过期，请重新登录', result: null }), { status: 401 });

async function expireAt(path: string, accountType: AccountType) {
  const router = createMemoryRouter(
    ['/ctrl-container-instances/containerInstances', '/login', '/sub-account-login'].map((route) => ({ path: route, element: null })),
    { initialEntries: [path] },
  );
  wireApiClient(() => router as unknown as AppRouter, createQueryClient());
  useUserStore.getState().setSession({ jwtToken: 'expired', refreshToken: '' }, accountType);
  vi.stubGlobal('fetch', vi.fn(async () => unauthorized()));
  await request({ url: '/user/userinfo', silent: true }).catch(() => undefined);
  await vi.waitFor(() => expect(router.state.location.pathname).not.toBe(path));
  return router;
}

afterEach(() => {
  vi.unstubAllGlobals();
  useUserStore.getState().clear();
});

describe('an expired session', () => {
  it('sends a main account to /login with where it was going', async () => {
    const router = await expireAt('/ctrl-container-instances/containerInstances', AccountType.MAIN);
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/login?redirect=%2Fctrl-container-instances%2FcontainerInstances');
    expect(useUserStore.getState().token).toBeNull();
  });

  it('sends a sub-account to /sub-account-login with where it was going', async () => {
    const router = await expireAt('/ctrl-container-instances/containerInstances', AccountType.SUB);
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/sub-account-login?redirect=%2Fctrl-container-instances%2FcontainerInstances');
  });
});
