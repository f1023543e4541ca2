/**
 * Only the authority types whose product exists are offered and accepted (issue 17, console point 1):
 * 模型部署 stays in the dictionary but cannot be granted until its issue builds it (弹性部署 became
 * grantable with issue 21, 文件存储 with issue 22: ALL or NONE only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PERMISSIONS, OFFERED_AUTHORITY_TYPES } from '@slg/shared';
import { call, createTestApp, registerUser, type TestApp } from '../../../test/helpers.js';
import type { SubAccountView } from './service.js';

let t: TestApp;
let mainToken = '';
beforeAll(async () => {
  t = await createTestApp();
  mainToken = (await registerUser(t)).jwtToken;
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
const uniqueName = () => `offered_${process.pid}_${++counter}`;
const PASSWORD = 'team2026pass';
const NOT_OFFERED = [['MODEL_DEPLOY', '模型部署尚未开放，不能设置该权限']] as const;

describe('offered authority types', () => {
  it('lists only 容器实例, 弹性部署, 镜像, 文件存储 and 费用中心 with their levels', async () => {
    const options = await call<{ authorityType: string; name: string; levels: { level: string }[] }[]>(t.app, {
      method: 'GET',
      url: '/api/v1/subuser/authority/permissions',
      token: mainToken,
    });
    expect(options.status).toBe(200);
    expect(options.body.result.map((option) => [option.authorityType, option.name, option.levels.map((level) => level.level)])).toEqual([
      ['CONTAINER', '容器实例', ['SELF', 'ALL', 'NONE']],
      ['ELASTIC', '弹性部署', ['SELF', 'ALL', 'NONE']],
      ['MIRROR', '镜像', ['SELF', 'ALL', 'NONE']],
      ['FILE_STORAGE', '文件存储', ['ALL', 'NONE']],
      ['INVOICE', '费用中心', ['ALL', 'NONE']],
    ]);
    expect(options.body.result.map((option) => option.authorityType)).toEqual([...OFFERED_AUTHORITY_TYPES]);
  });

  it('refuses a type not offered, at any level, on create and on setting permissions, and changes nothing', async () => {
    for (const [authorityType, message] of NOT_OFFERED) {
      for (const level of ['SELF', 'ALL', 'NONE'] as const) {
        const refused = await call(t.app, {
          method: 'POST',
          url: '/api/v1/subuser/create',
          token: mainToken,
          payload: { username: uniqueName(), password: PASSWORD, permissions: [{ authorityType: 'CONTAINER', level: 'SELF' }, { authorityType, level }] },
        });
        expect(refused.status, `${authorityType}=${level}`).toBe(400);
        expect(refused.body.rspmsg).toBe(message);
      }
    }
    expect((await call<{ total: number }>(t.app, { method: 'GET', url: '/api/v1/subuser/list', token: mainToken })).body.result.total).toBe(0);

    const created = await call<{ id: number }>(t.app, {
      method: 'POST',
      url: '/api/v1/subuser/create',
      token: mainToken,
      payload: { username: uniqueName(), password: PASSWORD, permissions: [{ authorityType: 'CONTAINER', level: 'SELF' }, { authorityType: 'INVOICE', level: 'ALL' }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.result.id;
    for (const [authorityType, message] of NOT_OFFERED) {
      const refused = await call(t.app, {
        method: 'POST',
        url: '/api/v1/subuser/permission',
        token: mainToken,
        payload: { id, permissions: [{ authorityType: 'MIRROR', level: 'ALL' }, { authorityType, level: 'ALL' }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.rspmsg).toBe(message);
    }
    const detail = await call<SubAccountView>(t.app, { method: 'GET', url: `/api/v1/subuser/detail/${id}`, token: mainToken });
    expect(detail.body.result.permissions).toEqual({ ...NO_PERMISSIONS, CONTAINER: 'SELF', INVOICE: 'ALL' });
  });

  it('grants 文件存储 as ALL or NONE, never SELF (the store is the main account’s)', async () => {
    const selfLevel = await call(t.app, {
      method: 'POST',
      url: '/api/v1/subuser/create',
      token: mainToken,
      payload: { username: uniqueName(), password: PASSWORD, permissions: [{ authorityType: 'FILE_STORAGE', level: 'SELF' }] },
    });
    expect(selfLevel.status).toBe(400);
    expect(selfLevel.body.rspmsg).toBe('文件存储只能设置为全部数据、无权限');
    const created = await call<{ id: number }>(t.app, {
      method: 'POST',
      url: '/api/v1/subuser/create',
      token: mainToken,
      payload: { username: uniqueName(), password: PASSWORD, permissions: [{ authorityType: 'FILE_STORAGE', level: 'ALL' }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const detail = await call<SubAccountView>(t.app, { method: 'GET', url: `/api/v1/subuser/detail/${created.body.result.id}`, token: mainToken });
    expect(detail.body.result.permissions).toEqual({ ...NO_PERMISSIONS, FILE_STORAGE: 'ALL' });
  });
});
