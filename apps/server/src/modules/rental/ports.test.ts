import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { hosts, instancePorts } from '../../db/schema/index.js';
import { MAX_PORTS_PER_INSTANCE, type PortView } from './ports.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const HOST = 'bj-a-4090-03';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

type User = { telephone: string; jwtToken: string };
const send = <T = unknown>(user: User, method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });

const settle = (seconds = 3) => settleMachines(t, seconds);

async function runningInstance(): Promise<{ user: User; instanceId: string }> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, 10_000);
  const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await settle();
  return { user, instanceId: created.body.result.instanceId };
}

describe('custom service ports (自定义服务)', () => {
  it('maps an HTTP port to its https address and a TCP port to a gateway port, switches protocol, lists and removes', async () => {
    const { user, instanceId } = await runningInstance();
    const http = await send<PortView>(user, 'POST', '/api/v1/rental/map_port', { instanceId, port: 6006, protocol: 1 });
    expect(http.status, JSON.stringify(http.body)).toBe(200);
    expect(http.body.result).toMatchObject({ port: 6006, protocol: 1, protocolName: 'HTTP', address: `https://${instanceId}-6006.bj-a.connect.localhost` });

    const tcp = await send<PortView>(user, 'POST', '/api/v1/rental/map_port', { instanceId, port: 8888, protocol: 2 });
    expect(tcp.status).toBe(200);
    expect(tcp.body.result.address).toMatch(/^bj-a\.connect\.localhost:\d{5}$/);

    const again = await send(user, 'POST', '/api/v1/rental/map_port', { instanceId, port: 6006, protocol: 2 });
    expect(again.status).toBe(409);
    expect(again.body.rspmsg).toBe('端口 6006 已添加为HTTP服务，如需更换协议请修改');
    const switched = await send<PortView>(user, 'PUT', '/api/v1/rental/update_custom_service_protocol', { instanceId, port: 6006, protocol: 2 });
    expect(switched.status).toBe(200);
    expect(switched.body.result.address).toMatch(/^bj-a\.connect\.localhost:\d{5}$/);
    const unknown = await send(user, 'PUT', '/api/v1/rental/update_custom_service_protocol', { instanceId, port: 7000, protocol: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.rspmsg).toBe('端口 7000 尚未添加为自定义服务');

    const listed = await send<PortView[]>(user, 'GET', `/api/v1/rental/ports?instanceId=${instanceId}`);
    expect(listed.body.result.map((port) => [port.port, port.protocolName])).toEqual([
      [6006, 'TCP'],
      [8888, 'TCP'],
    ]);
    expect(new Set(listed.body.result.map((port) => port.address)).size).toBe(2);

    expect((await send(user, 'DELETE', `/api/v1/rental/map_port?instanceId=${instanceId}&port=8888`)).status).toBe(200);
    const gone = await send(user, 'DELETE', `/api/v1/rental/map_port?instanceId=${instanceId}&port=8888`);
    expect(gone.status).toBe(404);
    expect((await send<PortView[]>(user, 'GET', `/api/v1/rental/ports?instanceId=${instanceId}`)).body.result).toHaveLength(1);
  });

  it('refuses SSH, out-of-range ports, bad protocols, other users, and a failing host (changing nothing)', async () => {
    const { user, instanceId } = await runningInstance();
    const ssh = await send(user, 'POST', '/api/v1/rental/map_port', { instanceId, port: 22, protocol: 2 });
    expect(ssh.status).toBe(400);
    expect(ssh.body.rspmsg).toBe('端口 22 为SSH保留端口，请使用其他端口');
    for (const port of [0, 65536, 1.5, '80']) {
      const bad = await send(user, 'POST', '/api/v1/rental/map_port', { instanceId, port, protocol: 1 });
      expect(bad.status).toBe(400);
    }
    const protocol = await send(user, 'POST', '/api/v1/rental/map_port', { instanceId, port: 80, protocol: 3 });
    expect(protocol.status).toBe(400);
    expect(protocol.body.rspmsg).toContain('协议必须是 1（HTTP）或 2（TCP）');

    const stranger = await registerUser(t);
    expect((await send(stranger, 'POST', '/api/v1/rental/map_port', { instanceId, port: 80, protocol: 1 })).status).toBe(404);
    expect((await send(stranger, 'GET', `/api/v1/rental/ports?instanceId=${instanceId}`)).status).toBe(404);

    await t.deps.database.db.update(hosts).set({ simFault: 'unreachable', simFaultReason: '主机网络中断' }).where(eq(hosts.id, HOST));
    const failing = await send(user, 'POST', '/api/v1/rental/map_port', { instanceId, port: 80, protocol: 1 });
    await t.deps.database.db.update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, HOST));
    expect(failing.status).toBe(503);
    expect(failing.body.rspmsg).toBe('自定义服务设置失败：主机网络中断，请稍后再试');
    expect((await send<PortView[]>(user, 'GET', `/api/v1/rental/ports?instanceId=${instanceId}`)).body.result).toEqual([]);
  });

  it(`keeps at most ${MAX_PORTS_PER_INSTANCE} ports per instance under a burst, and frees them when the instance is released`, async () => {
    const { user, instanceId } = await runningInstance();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => send(user, 'POST', '/api/v1/rental/map_port', { instanceId, port: 7000 + index, protocol: index % 2 === 0 ? 1 : 2 })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(MAX_PORTS_PER_INSTANCE);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.rspmsg).toBe(`每个实例最多添加${MAX_PORTS_PER_INSTANCE}个自定义服务端口，请先删除不用的端口`);
    }
    const rows = await t.deps.database.db.select().from(instancePorts);
    expect(rows.filter((row) => row.protocol === 2).every((row) => row.publicPort !== null)).toBe(true);

    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle();
    expect((await send(user, 'DELETE', `/api/v1/rental?instanceId=${instanceId}`)).status).toBe(200);
    const left = await t.deps.database.db.select().from(instancePorts);
    expect(left.length).toBe(rows.length - MAX_PORTS_PER_INSTANCE);
  });
});
