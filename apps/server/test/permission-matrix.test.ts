/**
 * The permission matrix (issue 9): generated from the routes the app registers, so a new endpoint
 * without a rule fails here. For every private /api/v1 route: it names its rule (an authority type, the
 * operator role, main accounts only, or any signed-in account); then a sub-account is refused (403)
 * exactly when the rule refuses it — per authority type and level — before the body is even looked at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_LEVELS, AUTHORITY_TYPES, FULL_PERMISSIONS, NO_PERMISSIONS, OFFERED_AUTHORITY_TYPES, type AuthorityType, type PermissionLevel, type PermissionMap } from '@slg/shared';
import { call, createTestApp, registerUser, type TestApp } from './helpers.js';
import { users, wallets } from '../src/db/schema/index.js';
import { SessionService } from '../src/modules/auth/sessions.js';
import type { ApiRoute } from '../src/http/auth.js';

let t: TestApp;
let mainId = 0;
let mainToken = '';
beforeAll(async () => {
  t = await createTestApp();
  const main = await registerUser(t);
  mainToken = main.jwtToken;
  mainId = (await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: main.jwtToken })).body.result.userId;
});
afterAll(async () => {
  await t.close();
});

let subCounter = 0;
const tokens = new Map<string, string>();
/** A signed-in sub-account of the test's main account with exactly these permissions (one per distinct map). */
async function subAccountWith(permissions: PermissionMap): Promise<string> {
  const key = JSON.stringify(permissions);
  const known = tokens.get(key);
  if (known) return known;
  const db = t.deps.database.db;
  const [sub] = await db
    .insert(users)
    .values({ accountType: 2, parentId: mainId, username: `matrix_${process.pid}_${++subCounter}`, nickName: '矩阵', permissions })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db.insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
  const session = await db.transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  tokens.set(key, session.jwtToken);
  return session.jwtToken;
}

/** The route with its path parameters filled in (the value does not matter: refusals come first). */
function urlOf(route: ApiRoute): string {
  return route.url.replace(/:[A-Za-z]+/g, '1');
}

async function statusFor(route: ApiRoute, token: string): Promise<number> {
  const method = route.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  // Not every answer is JSON (exports are CSV): only the status counts here.
  const answer = await t.app.inject({ method, url: urlOf(route), headers: { authorization: `Bearer ${token}` }, ...(['POST', 'PUT', 'PATCH'].includes(method) ? { payload: {} } : {}) });
  return answer.statusCode;
}

const privateRoutes = () => t.app.apiRoutes.filter((route) => !route.public);
const label = (route: ApiRoute) => `${route.method} ${route.url}`;

describe('permission matrix', () => {
  it('refuses every private route without a token with 401, whatever the body (authentication before validation)', async () => {
    const wrong: string[] = [];
    for (const route of privateRoutes()) {
      const method = route.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      const bodies: { payload?: string; headers?: Record<string, string> }[] = [{}];
      if (['POST', 'PUT', 'PATCH'].includes(method)) {
        bodies.push({ payload: '{}', headers: { 'content-type': 'application/json' } }, { payload: '{"name":', headers: { 'content-type': 'application/json' } });
      }
      for (const body of bodies) {
        const answer = await t.app.inject({ method, url: urlOf(route), ...body });
        if (answer.statusCode !== 401) wrong.push(`${label(route)} ${body.payload ?? '(no body)'} → ${answer.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every private route names its rule', () => {
    expect(privateRoutes().length).toBeGreaterThan(50);
    expect(privateRoutes().filter((route) => route.rule === null).map(label)).toEqual([]);
  });

  it('refuses a sub-account exactly where its level on the route’s authority type is NONE', async () => {
    const mismatches: string[] = [];
    for (const route of privateRoutes()) {
      const rule = route.rule;
      if (!rule || !('authority' in rule)) continue;
      const authority: AuthorityType = rule.authority;
      // NONE on this type, ALL on every other: refused.
      const without = await statusFor(route, await subAccountWith({ ...FULL_PERMISSIONS, [authority]: 'NONE' }));
      if (without !== 403) mismatches.push(`${label(route)}: ${authority}=NONE → ${without}`);
      // Each level it offers on this type, NONE on every other: not refused by the rule.
      for (const level of ALLOWED_LEVELS[authority].filter((item): item is Exclude<PermissionLevel, 'NONE'> => item !== 'NONE')) {
        const status = await statusFor(route, await subAccountWith({ ...NO_PERMISSIONS, [authority]: level }));
        if (status === 403) mismatches.push(`${label(route)}: ${authority}=${level} → 403`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('refuses a sub-account on main-account and operator routes whatever its permissions, and lets account routes through', async () => {
    const everything = await subAccountWith(FULL_PERMISSIONS);
    const nothing = await subAccountWith(NO_PERMISSIONS);
    const mismatches: string[] = [];
    for (const route of privateRoutes()) {
      const rule = route.rule;
      if (!rule || 'authority' in rule) continue;
      const status = await statusFor(route, 'account' in rule ? nothing : everything);
      if ('account' in rule ? status === 403 : status !== 403) mismatches.push(`${label(route)} → ${status}`);
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('offers exactly the authority types some route is guarded by', () => {
    const covered = new Set(privateRoutes().flatMap((route) => (route.rule && 'authority' in route.rule ? [route.rule.authority] : [])));
    // 模型部署 has no endpoints yet, so a main account cannot grant it; the issue that builds it adds
    // its routes and offers its type together (as issue 21 did for 弹性部署 and issue 22 for 文件存储).
    expect(AUTHORITY_TYPES.filter((type) => covered.has(type))).toEqual([...OFFERED_AUTHORITY_TYPES]);
  });

  it('the main account is refused by none of the authority rules', async () => {
    const refused: string[] = [];
    for (const route of privateRoutes()) {
      if (!route.rule || !('authority' in route.rule || 'mainAccount' in route.rule)) continue;
      if ((await statusFor(route, mainToken)) === 403) refused.push(label(route));
    }
    expect(refused).toEqual([]);
  }, 120_000);
});
