import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, registerUser, uniquePhone, type TestApp } from '../../test/helpers.js';
import { users } from '../db/schema/index.js';
import { AdminCommandError, parseAdminArgs, runAdminCommand } from './admin.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rolesOf = async (telephone: string) =>
  (await t.deps.database.db.select({ roles: users.roles }).from(users).where(eq(users.telephone, telephone)))[0]?.roles;

describe('npm run admin', () => {
  it('grants and revokes the operator role, idempotently', async () => {
    const user = await registerUser(t);
    const db = t.deps.database.db;
    expect((await call(t.app, { method: 'GET', url: '/api/v1/admin/audit-logs', token: user.jwtToken })).status).toBe(403);

    expect(await runAdminCommand(db, ['grant-operator', user.telephone])).toBe(
      `已授予 ${user.telephone} 运营人员权限（operator），重新进入控制台即可使用运营功能`,
    );
    expect(await rolesOf(user.telephone)).toEqual(['operator']);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/admin/audit-logs', token: user.jwtToken })).status).toBe(200);
    expect(await runAdminCommand(db, ['grant-operator', user.telephone])).toBe(`${user.telephone} 已经是运营人员，无需重复授予`);
    expect(await rolesOf(user.telephone)).toEqual(['operator']);

    expect(await runAdminCommand(db, ['revoke-operator', user.telephone])).toBe(`已撤销 ${user.telephone} 的运营人员权限（operator）`);
    expect(await rolesOf(user.telephone)).toEqual([]);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/admin/audit-logs', token: user.jwtToken })).status).toBe(403);
    expect(await runAdminCommand(db, ['revoke-operator', user.telephone])).toBe(`${user.telephone} 不是运营人员，无需撤销`);
  });

  it('refuses an unknown telephone, a malformed one and unknown commands with a clear message', async () => {
    const db = t.deps.database.db;
    const ghost = uniquePhone();
    await expect(runAdminCommand(db, ['grant-operator', ghost])).rejects.toThrow(`手机号 ${ghost} 尚未注册，请先在控制台注册该账号`);
    await expect(runAdminCommand(db, ['grant-operator', ghost])).rejects.toBeInstanceOf(AdminCommandError);
    expect(() => parseAdminArgs([])).toThrow('缺少命令');
    expect(() => parseAdminArgs(['make-admin', '13800000000'])).toThrow('未知命令：make-admin');
    expect(() => parseAdminArgs(['grant-operator'])).toThrow('缺少手机号');
    expect(() => parseAdminArgs(['grant-operator', '12345'])).toThrow('手机号格式不正确：12345');
    expect(() => parseAdminArgs(['grant-operator', '13800000000', 'extra'])).toThrow('多余的参数：extra');
    expect(parseAdminArgs(['revoke-operator', '13800000000'])).toEqual({ command: 'revoke-operator', telephone: '13800000000' });
  });
});
