import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../api/client';
import { useUserStore } from '../stores/user';
import { rootLoader } from './rootLoader';

const ok = (result: unknown) =>
  new Response(JSON.stringify({ rspcode: 0, code: 200, rspmsg: 'success', result }), { status: 200 });

const userInfo = {
  userId: 1,
  userName: 'u1',
  nickName: '小明',
  telephone: '138****0000',
  accountType: 1,
  roles: [],
  hasPassword: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

async function run(path: string): Promise<string | null> {
  try {
    await rootLoader({ request: new Request(`http://localhost${path}`), params: {}, context: undefined } as Parameters<typeof rootLoader>[0]);
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

describe('root loader', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    fetchMock.mockReset();
    sessionStorage.clear();
    useUserStore.getState().clear();
    configureApiClient({
      fetch: fetchMock,
      notify: () => undefined,
      onUnauthorized: () => undefined,
      session: {
        getToken: () => useUserStore.getState().token,
        getRefreshToken: () => null,
        setTokens: () => undefined,
      },
    });
  });
  afterEach(() => useUserStore.getState().clear());

  it('redirects an anonymous user to /login with the original path', async () => {
    expect(await run('/ctrl-overview/overview?a=1')).toBe('/login?redirect=%2Fctrl-overview%2Foverview%3Fa%3D1');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps the invite code of the URL in the session storage', async () => {
    expect(await run('/signup?invite_code=INV42')).toBeNull();
    expect(sessionStorage.getItem('invite_code')).toBe('INV42');
  });

  it('loads the main account info once on navigation', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    fetchMock.mockResolvedValueOnce(ok(userInfo));
    expect(await run('/ctrl-overview/overview')).toBeNull();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/user/userinfo');
    expect(useUserStore.getState().userInfo).toEqual({ kind: 'main', info: userInfo });
    expect(await run('/ctrl-overview/overview')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('loads a sub-account through /subuser/me and then applies its permissions', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 2);
    fetchMock.mockResolvedValueOnce(
      ok({ userId: 2, username: 'dev', nickname: '', accountType: 2, permissions: ['CONTAINER'], sharedMainBalance: false, mainAccountId: 1 }),
    );
    expect(await run('/ctrl-cost-center/cost-center/order')).toBe('/403');
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/subuser/me');
    expect(await run('/ctrl-container-instances/containerInstances')).toBeNull();
  });

  it('clears the session and goes to login when the info cannot be loaded', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ rspcode: 50000, code: 50000, rspmsg: 'x', result: null }), { status: 500 }));
    expect(await run('/ctrl-overview/overview')).toBe('/login?redirect=%2Fctrl-overview%2Foverview');
    expect(useUserStore.getState().token).toBeNull();
  });

  it('opens a menu group’s first page from the group’s own path, keeping the query (issue 17)', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    fetchMock.mockResolvedValueOnce(ok(userInfo));
    expect(await run('/ctrl-container-instances')).toBe('/ctrl-container-instances/containerInstances');
    expect(await run('/ctrl-personal-center/personal-center/?tab=1')).toBe('/ctrl-personal-center/personal-center/account-settings?tab=1');
    // Nothing built in the group: it stays 页面不存在.
    expect(await run('/workbench/workbench')).toBeNull();
  });

  it('sends a sub-account from a group to the first page it may open, once its permissions are loaded', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 2);
    fetchMock.mockResolvedValueOnce(
      ok({ userId: 2, username: 'dev', nickname: '', accountType: 2, permissions: ['CONTAINER'], sharedMainBalance: false, mainAccountId: 1 }),
    );
    expect(await run('/ctrl-personal-center/personal-center')).toBe('/ctrl-personal-center/personal-center/charging-record');
  });

  it('sends a signed-in account away from registration to its console (issue 17)', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    fetchMock.mockResolvedValueOnce(ok(userInfo));
    expect(await run('/signup')).toBe('/ctrl-overview/overview');
    expect(await run('/register?invite_code=x')).toBe('/ctrl-overview/overview');
  });

  it('sends a logged-in user away from /login and any components path to /403', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    expect(await run('/login')).toBe('/');
    expect(await run('/a/components/b')).toBe('/403');
  });
});
