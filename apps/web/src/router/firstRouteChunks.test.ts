import { afterEach, describe, expect, it } from 'vitest';
import { useUserStore } from '../stores/user';
import { firstRouteChunks } from './router';

function load(pathname: string): Promise<unknown[]> {
  return Promise.all(firstRouteChunks({ pathname, search: '' }).map((chunk) => chunk()));
}

describe('the first route’s chunks, started before the router is created', () => {
  afterEach(() => useUserStore.getState().clear());

  it('are the layout and the page of a public route', async () => {
    const [layout, page] = await load('/login');
    expect(layout).toEqual({ Component: (await import('../layouts/DefaultLayout')).DefaultLayout });
    expect(page).toBe(await import('../pages/login/index'));
  });

  it('are only the layout for a path without a page (the router shows 页面不存在 in it)', async () => {
    expect(await load('/no/such/page')).toEqual([{ Component: (await import('../layouts/DefaultLayout')).DefaultLayout }]);
  });

  it('are none for a console route the guards send to the sign-in page', () => {
    expect(firstRouteChunks({ pathname: '/ctrl-overview/overview', search: '' })).toEqual([]);
  });

  it('are the console layout and page once signed in', async () => {
    useUserStore.getState().setTokens({ jwtToken: 'token', refreshToken: 'refresh' });
    const [layout, page] = await load('/ctrl-overview/overview');
    expect(layout).toEqual({ Component: (await import('../layouts/DashboardLayout')).DashboardLayout });
    expect(page).toBe(await import('../pages/ctrl-overview/overview/index'));
  });
});
