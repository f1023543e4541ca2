import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { TERMINAL_TEXTS } from './terminal.js';
import { TOOLS_TEXTS } from './tools-gateway.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('快捷工具 on the simulated fleet', () => {
  it('says simulated machines have no shell, and issues no ticket nor tools cookie', async () => {
    const user = await registerUser(t);
    const available = await call<{ available: boolean; reason: string | null }>(t.app, { method: 'GET', url: '/api/v1/rental/terminal/available', token: user.jwtToken });
    expect(available.body.result).toEqual({ available: false, reason: TERMINAL_TEXTS.simulated });
    await rechargeThroughSandbox(t, user.jwtToken, 10_000);
    const created = await call<{ instanceId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token: user.jwtToken,
      payload: { hostId: 'bj-a-4090-01', gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
    });
    const ticket = await call(t.app, { method: 'POST', url: '/api/v1/rental/terminal/ticket', token: user.jwtToken, payload: { instanceId: created.body.result.instanceId } });
    expect(ticket.status).toBe(409);
    expect(ticket.body.rspmsg).toBe(TERMINAL_TEXTS.simulated);
    const tools = await call(t.app, { method: 'POST', url: '/api/v1/rental/tools/session', token: user.jwtToken, payload: { instanceId: created.body.result.instanceId } });
    expect(tools.status).toBe(409);
    expect(tools.body.rspmsg).toBe(TERMINAL_TEXTS.simulated);
    for (const tool of ['jupyter', 'tensorboard']) {
      const gateway = await t.app.inject({ method: 'GET', url: `/tools/${created.body.result.instanceId}/${tool}/` });
      expect(gateway.statusCode).toBe(403);
      expect(gateway.body).toContain(TOOLS_TEXTS.forbidden);
    }
    expect((await call(t.app, { method: 'GET', url: '/api/v1/rental/terminal/available' })).status).toBe(401);
  });
});
