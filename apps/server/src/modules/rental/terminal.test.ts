import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { TERMINAL_TEXTS } from './terminal.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('终端 on the simulated fleet', () => {
  it('says simulated machines have no shell, and issues no ticket', async () => {
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
    expect((await call(t.app, { method: 'GET', url: '/api/v1/rental/terminal/available' })).status).toBe(401);
  });
});
