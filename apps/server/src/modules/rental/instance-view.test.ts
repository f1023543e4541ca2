/**
 * What the instance view says about a stopped instance whose last run was in 无卡模式 (issue 17): the
 * configuration and the price 开机 starts with (有卡), and the mode of the last run apart — not
 * "RTX 4090（无卡模式）", the GPU cores and memory and ¥0.10/时 mixed together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB } from '@slg/shared';
import { call, createTestApp, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import type { InstanceView } from './views.js';

let t: TestApp;
/** RTX 4090 at the seed price: 198 fen per GPU-hour, 16 cores and 90 GB per GPU. */
const HOST = 'bj-a-4090-01';
const GPU_PRICE = 198;
const NO_GPU_PRICE = 10;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '1', SIM_STOP_SECONDS: '1' } });
});
afterAll(async () => {
  await t.close();
});

const settle = (seconds = 3) => settleMachines(t, seconds);

async function views(token: string, instanceId: string): Promise<InstanceView[]> {
  const detail = await call<InstanceView>(t.app, { method: 'GET', url: `/api/v1/rental/detail?instanceId=${instanceId}`, token });
  const list = await call<{ list: InstanceView[] }>(t.app, { method: 'GET', url: '/api/v1/rental?page=1&pageSize=10', token });
  const listed = list.body.result.list.find((instance) => instance.instanceId === instanceId);
  if (!listed) throw new Error('not in the list');
  return [detail.body.result, listed];
}

const post = (token: string, url: string, payload: Record<string, unknown>) => call<InstanceView>(t.app, { method: 'POST', url, token, payload });

describe('instance view of the mode', () => {
  it('shows a running no-GPU run as such, and once stopped what 开机 starts with and the last run’s mode apart', async () => {
    const user = await registerUser(t);
    await rechargeThroughSandbox(t, user.jwtToken, 10_000);
    const created = await call<{ instanceId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token: user.jwtToken,
      payload: { hostId: HOST, gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { instanceId } = created.body.result;
    await settle();
    const gpuConfig = { gpuMode: 'gpu', priceFen: GPU_PRICE, cpuCores: 16, memoryGb: 90 };
    for (const view of await views(user.jwtToken, instanceId)) expect(view).toMatchObject({ status: 'PoweredOn', ...gpuConfig, lastRunMode: null });

    expect((await post(user.jwtToken, '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle();
    const starting = await post(user.jwtToken, '/api/v1/rental/power_on', { instanceId, mode: 'nogpu' });
    expect(starting.status, JSON.stringify(starting.body)).toBe(200);
    // Starting in no-GPU mode: that is its mode now.
    expect(starting.body.result).toMatchObject({ operation: 'power_on', gpuMode: 'nogpu', lastRunMode: null, priceFen: NO_GPU_PRICE });
    await settle();
    const noGpuConfig = { gpuMode: 'nogpu', priceFen: NO_GPU_PRICE, cpuCores: NO_GPU_CPU_CORES, memoryGb: NO_GPU_MEMORY_GB, lastRunMode: null };
    for (const view of await views(user.jwtToken, instanceId)) expect(view).toMatchObject({ status: 'PoweredOnNoGPU', ...noGpuConfig });

    expect((await post(user.jwtToken, '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle();
    for (const view of await views(user.jwtToken, instanceId)) {
      expect(view).toMatchObject({ status: 'PoweredOff', ...gpuConfig, lastRunMode: 'nogpu', gpuPriceFen: GPU_PRICE, noGpuPriceFen: NO_GPU_PRICE });
    }
  }, 60_000);
});
