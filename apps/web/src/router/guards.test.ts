import { describe, expect, it, vi } from 'vitest';
import {
  applyCanonical,
  canonicalUrl,
  documentTitle,
  evaluateAccess,
  groupLandingPath,
  hasComponentsSegment,
  INVITE_CODE_KEY,
  loginRedirectPath,
  postLoginTarget,
  readInviteCode,
  saveInviteCode,
  subAccountMayOpen,
  type GuardMeta,
  type SessionSnapshot,
} from './guards';
import { findRoute, resolveRoute, type RouteRecord } from './routes';

const anonymous: SessionSnapshot = { loggedIn: false, accountType: null, permissions: null };
const main: SessionSnapshot = {
  loggedIn: true,
  accountType: 1,
  permissions: ['CONTAINER', 'ELASTIC', 'MIRROR', 'FILE_STORAGE', 'INVOICE', 'MODEL_DEPLOY'],
};
const sub = (permissions: SessionSnapshot['permissions']): SessionSnapshot => ({ loggedIn: true, accountType: 2, permissions });

const at = (pathname: string, search = '') => ({ pathname, search });
const meta = (path: string): GuardMeta => resolveRoute(path).meta;

describe('login required', () => {
  it('sends an anonymous user on a private route to /login with the original path and query', () => {
    expect(evaluateAccess(meta('/ctrl-overview/overview'), anonymous, at('/ctrl-overview/overview', '?tab=1&x=a b'))).toEqual({
      type: 'redirect',
      to: `/login?redirect=${encodeURIComponent('/ctrl-overview/overview?tab=1&x=a b')}`,
    });
  });

  it('lets an anonymous user open every public route of spec §2', () => {
    const publicPaths = [
      '/signup', '/login', '/sub-account-login', '/terms/service-terms', '/terms/privacy-terms', '/home', '/news',
      '/news/list', '/about', '/latest-activities', '/reset-password', '/register', '/403', '/404', '/500', '/',
      '/activities-detail', '/share-data', '/error', '/computility-market', '/model-market/model-center/modelCenter',
      '/welcome', '/signup/privacy', '/signup/service', '/signup/verify',
    ];
    for (const path of publicPaths) {
      expect(evaluateAccess(meta(path), anonymous, at(path)), path).toEqual({ type: 'allow' });
    }
  });

  it('requires login for /exchange, /form and the console', () => {
    for (const path of ['/exchange', '/form', '/ctrl-cost-center/cost-center/recharge', '/workbench/workbench', '/computility-market/region',
      '/model-market/modelMarket/textModel', '/model-market/modelMarket/chat']) {
      const decision = evaluateAccess(meta(path), anonymous, at(path));
      expect(decision.type, path).toBe('redirect');
      expect(decision.type === 'redirect' && decision.to.startsWith('/login?redirect='), path).toBe(true);
    }
  });

  it('lets a logged-in user open private routes', () => {
    expect(evaluateAccess(meta('/ctrl-overview/overview'), main, at('/ctrl-overview/overview'))).toEqual({ type: 'allow' });
  });

  it('shows unknown paths (404) without login', () => {
    expect(evaluateAccess(meta('/no/such/page'), anonymous, at('/no/such/page'))).toEqual({ type: 'allow' });
  });
});

describe('logged-in user on /login', () => {
  it('goes to /', () => {
    expect(evaluateAccess(meta('/login'), main, at('/login', '?redirect=%2Fabout'))).toEqual({ type: 'redirect', to: '/' });
    expect(evaluateAccess(meta('/login/'), main, at('/login/'))).toEqual({ type: 'redirect', to: '/' });
  });

  it('does not apply to an anonymous user or to other public pages', () => {
    expect(evaluateAccess(meta('/login'), anonymous, at('/login'))).toEqual({ type: 'allow' });
    expect(evaluateAccess(meta('/about'), main, at('/about'))).toEqual({ type: 'allow' });
  });
});

describe('registration is for visitors', () => {
  it('sends a signed-in main account from /signup, its dialogs and /register to the console', () => {
    for (const path of ['/signup', '/signup/verify', '/signup/service', '/register', '/Register/']) {
      expect(evaluateAccess(meta(path), main, at(path, '?invite_code=x')), path).toEqual({ type: 'redirect', to: '/ctrl-overview/overview' });
    }
  });

  it('sends a signed-in sub-account to its own page, whatever its permissions', () => {
    for (const session of [sub(null), sub([]), sub(['CONTAINER'])]) {
      expect(evaluateAccess(meta('/signup'), session, at('/signup'))).toEqual({ type: 'redirect', to: '/ctrl-child-info/child-account-info' });
    }
  });

  it('lets a visitor register', () => {
    for (const path of ['/signup', '/signup/verify', '/register']) expect(evaluateAccess(meta(path), anonymous, at(path)), path).toEqual({ type: 'allow' });
  });
});

describe('a menu group opened by its own path', () => {
  const route = (path: string) => findRoute(path) as RouteRecord;

  it('opens the group’s first page', () => {
    expect(groupLandingPath(route('/ctrl-container-instances'), main)).toBe('/ctrl-container-instances/containerInstances');
    expect(groupLandingPath(route('/ctrl-personal-center/personal-center'), main)).toBe('/ctrl-personal-center/personal-center/account-settings');
    expect(groupLandingPath(route('/ctrl-flexible-deployment/flexiible-deployment'), main)).toBe('/ctrl-flexible-deployment/flexiible-deployment/flexiible-deployment');
  });

  it('opens the first page a sub-account may open, as its sidebar does', () => {
    expect(groupLandingPath(route('/ctrl-personal-center/personal-center'), sub(['CONTAINER']))).toBe('/ctrl-personal-center/personal-center/charging-record');
    expect(groupLandingPath(route('/ctrl-personal-center/personal-center'), sub(['MIRROR']))).toBe('/ctrl-personal-center/personal-center/setting');
    expect(groupLandingPath(route('/ctrl-personal-center/personal-center'), sub([]))).toBe('/ctrl-personal-center/personal-center/account-settings');
  });

  it('opens 模型市场 at 文本模型 (issue 23)', () => {
    expect(groupLandingPath(route('/model-market/modelMarket'), main)).toBe('/model-market/modelMarket/textModel');
  });

  it('leaves pages, dialogs and groups with nothing built alone', () => {
    for (const path of ['/ctrl-cost-center/cost-center', '/signup/verify', '/workbench/workbench', '/news']) {
      expect(groupLandingPath(route(path), main), path).toBeNull();
    }
  });
});

describe('components segment', () => {
  it('sends any path with a components segment to /403, logged in or not', () => {
    const path = '/ctrl-container-instances/components/ShutdownDialog';
    expect(evaluateAccess(meta(path), anonymous, at(path))).toEqual({ type: 'redirect', to: '/403' });
    expect(evaluateAccess(meta(path), main, at(path))).toEqual({ type: 'redirect', to: '/403' });
    expect(evaluateAccess(meta('/components'), main, at('/components'))).toEqual({ type: 'redirect', to: '/403' });
  });

  it('matches whole segments only', () => {
    expect(hasComponentsSegment('/a/components/b')).toBe(true);
    expect(hasComponentsSegment('/a/Components')).toBe(true);
    expect(hasComponentsSegment('/a/my-components/b')).toBe(false);
    expect(hasComponentsSegment('/componentsx')).toBe(false);
    expect(hasComponentsSegment('/about')).toBe(false);
  });
});

describe('sub-accounts', () => {
  const withContainer = sub(['CONTAINER']);

  it('may open routes flagged as sub-account pages', () => {
    for (const path of ['/ctrl-container-instances/createInstances', '/ctrl-data-set/data-set', '/ctrl-data-set/data-set/shared-data',
      '/ctrl-personal-center/personal-center', '/ctrl-personal-center/personal-center/setting', '/ctrl-child-info/child-account-info']) {
      expect(evaluateAccess(meta(path), sub(['INVOICE']), at(path)), path).toEqual({ type: 'allow' });
    }
  });

  it('may open routes whose permission is in their list', () => {
    expect(evaluateAccess(meta('/ctrl-container-instances/containerInstances'), withContainer, at('/ctrl-container-instances/containerInstances'))).toEqual({ type: 'allow' });
  });

  it('may open public routes', () => {
    expect(evaluateAccess(meta('/about'), withContainer, at('/about'))).toEqual({ type: 'allow' });
    expect(evaluateAccess(meta('/model-market/model-center/modelCenter'), withContainer, at('/model-market/model-center/modelCenter'))).toEqual({ type: 'allow' });
  });

  it('goes to /403 for a route whose permission it lacks', () => {
    expect(evaluateAccess(meta('/ctrl-cost-center/cost-center/order'), withContainer, at('/ctrl-cost-center/cost-center/order'))).toEqual({ type: 'redirect', to: '/403' });
    expect(evaluateAccess(meta('/workbench/workbench'), withContainer, at('/workbench/workbench'))).toEqual({ type: 'redirect', to: '/403' });
    // 模型市场 and 模型对话 need 模型部署 (MODEL_DEPLOY), which no sub-account can be granted yet.
    for (const path of ['/model-market/modelMarket/textModel', '/model-market/modelMarket/visualModel', '/model-market/modelMarket/chat']) {
      expect(evaluateAccess(meta(path), withContainer, at(path)), path).toEqual({ type: 'redirect', to: '/403' });
      expect(evaluateAccess(meta(path), main, at(path)), path).toEqual({ type: 'allow' });
    }
  });

  it('goes to /403 for a console route without permission tag that is not a sub-account page', () => {
    expect(evaluateAccess(meta('/ctrl-personal-center/personal-center/child-account'), withContainer, at('/ctrl-personal-center/personal-center/child-account'))).toEqual({ type: 'redirect', to: '/403' });
    expect(evaluateAccess(meta('/ctrl-overview/overview'), withContainer, at('/ctrl-overview/overview'))).toEqual({ type: 'redirect', to: '/403' });
  });

  it('is not restricted when it holds no permission at all', () => {
    expect(evaluateAccess(meta('/ctrl-cost-center/cost-center/order'), sub([]), at('/ctrl-cost-center/cost-center/order'))).toEqual({ type: 'allow' });
  });

  it('is not checked before its permission list is loaded', () => {
    expect(evaluateAccess(meta('/ctrl-cost-center/cost-center/order'), sub(null), at('/ctrl-cost-center/cost-center/order'))).toEqual({ type: 'allow' });
  });

  it('does not apply to main accounts', () => {
    expect(evaluateAccess(meta('/ctrl-personal-center/personal-center/child-account'), { ...main, permissions: ['CONTAINER'] }, at('/ctrl-personal-center/personal-center/child-account'))).toEqual({ type: 'allow' });
  });

  it('subAccountMayOpen decides on the meta alone', () => {
    expect(subAccountMayOpen({ permission: 'MIRROR' }, ['MIRROR'])).toBe(true);
    expect(subAccountMayOpen({ permission: 'MIRROR' }, ['ELASTIC'])).toBe(false);
    expect(subAccountMayOpen({}, ['ELASTIC'])).toBe(false);
    expect(subAccountMayOpen({ subAccountPage: true }, ['ELASTIC'])).toBe(true);
    expect(subAccountMayOpen({ public: true, permission: 'MIRROR' }, ['ELASTIC'])).toBe(true);
  });
});

describe('invite code', () => {
  it('is saved to the session storage on arrival', () => {
    const storage = { setItem: vi.fn() };
    expect(saveInviteCode('?invite_code=ABC123&x=1', storage)).toBe('ABC123');
    expect(storage.setItem).toHaveBeenCalledWith(INVITE_CODE_KEY, 'ABC123');
  });

  it('is left alone when the query has none (or an empty one)', () => {
    const storage = { setItem: vi.fn() };
    expect(saveInviteCode('?x=1', storage)).toBeNull();
    expect(saveInviteCode('?invite_code=', storage)).toBeNull();
    expect(saveInviteCode('', storage)).toBeNull();
    expect(storage.setItem).not.toHaveBeenCalled();
  });

  it('survives a storage that throws', () => {
    const storage = {
      setItem: () => {
        throw new Error('quota');
      },
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(saveInviteCode('?invite_code=A', storage)).toBeNull();
    expect(readInviteCode(storage)).toBeNull();
  });

  it('is read back', () => {
    sessionStorage.clear();
    saveInviteCode('?invite_code=XYZ', sessionStorage);
    expect(readInviteCode(sessionStorage)).toBe('XYZ');
  });
});

describe('title and canonical link', () => {
  it('joins the app title and the route title', () => {
    expect(documentTitle('算力港', '登录')).toBe('算力港 - 登录');
    expect(documentTitle('算力港', undefined)).toBe('算力港');
    expect(documentTitle('算力港', resolveRoute('/ctrl-overview/overview').meta.title)).toBe('算力港 - 总览');
  });

  it('builds the canonical URL from the public URL and the path', () => {
    expect(canonicalUrl('https://slg.example.com', '/about')).toBe('https://slg.example.com/about');
    expect(canonicalUrl('https://slg.example.com/', '/about')).toBe('https://slg.example.com/about');
    expect(canonicalUrl('https://slg.example.com', '/')).toBe('https://slg.example.com/');
  });

  it('writes one canonical link into the head', () => {
    applyCanonical(document, 'https://slg.example.com/a');
    applyCanonical(document, 'https://slg.example.com/b');
    const links = document.head.querySelectorAll('link[rel="canonical"]');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://slg.example.com/b');
  });
});

describe('redirect helpers', () => {
  it('encodes the path with its query', () => {
    expect(loginRedirectPath(at('/a/b', '?c=1'))).toBe('/login?redirect=%2Fa%2Fb%3Fc%3D1');
  });

  it('follows a same-site redirect after login', () => {
    expect(postLoginTarget('?redirect=%2Fctrl-cost-center%2Fcost-center%2Forder%3Fpage%3D2', '/x')).toBe('/ctrl-cost-center/cost-center/order?page=2');
  });

  it('refuses foreign, protocol-relative and login redirects', () => {
    expect(postLoginTarget('?redirect=https%3A%2F%2Fevil.example', '/x')).toBe('/x');
    expect(postLoginTarget('?redirect=%2F%2Fevil.example', '/x')).toBe('/x');
    expect(postLoginTarget('?redirect=%2F%5Cevil.example', '/x')).toBe('/x');
    expect(postLoginTarget('?redirect=%2Flogin%3Fredirect%3D%2Fa', '/x')).toBe('/x');
    expect(postLoginTarget('', '/x')).toBe('/x');
  });
});
