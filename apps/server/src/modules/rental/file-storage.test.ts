/**
 * 文件存储 in instances and elastic containers (issue 22): a store of the owner's region is mounted at
 * /root/slg-fs by every create and power-on; an instance that started before the store was initialised
 * shows 需重启后挂载 (`restartNeeded`) until its next start. The stores are rows written here directly
 * (their API has its own tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { Page } from '@slg/shared';
import type { ElasticContainerView, ElasticCreated } from '@slg/shared/views/elastic';
import { call, createTestApp, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { fileStorages, instances, simMachines, users, zones } from '../../db/schema/index.js';
import { fileStorageKey } from '../storage/keys.js';
import { ElasticController } from '../elastic/controller.js';
import { Reconciler } from './reconciler.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const HOST = 'bj-a-4090-01';
const ZONE = 'bj-a';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '1', SIM_STOP_SECONDS: '1' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const settle = () => settleMachines(t, 3);
type User = Awaited<ReturnType<typeof registerUser>> & { id: number };

async function fundedUser(): Promise<User> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, 100_000);
  const [row] = await db().select({ id: users.id }).from(users).where(eq(users.telephone, user.telephone));
  if (!row) throw new Error('no user');
  return { ...user, id: row.id };
}

/** A store initialised for the account in the region, as the storage API leaves it. */
async function initialiseStore(user: User, zoneId = ZONE): Promise<number> {
  const [row] = await db().insert(fileStorages).values({ ownerId: user.id, creatorId: user.id, zoneId, billedUntil: t.deps.now() }).returning({ id: fileStorages.id });
  if (!row) throw new Error('no store');
  return row.id;
}

async function rent(user: User, hostId = HOST): Promise<string> {
  const created = await call<{ instanceId: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token: user.jwtToken,
    payload: { hostId, gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.result.instanceId;
}

/** What the detail and the list both say of the instance's store. */
async function shown(user: User, instanceId: string): Promise<string[]> {
  const detail = await call<InstanceView>(t.app, { method: 'GET', url: `/api/v1/rental/detail?instanceId=${instanceId}`, token: user.jwtToken });
  const list = await call<{ list: InstanceView[] }>(t.app, { method: 'GET', url: '/api/v1/rental?page=1&pageSize=10', token: user.jwtToken });
  return [detail.body.result.fileStorage, list.body.result.list.find((instance) => instance.instanceId === instanceId)?.fileStorage ?? 'missing'];
}

async function machineStore(instanceId: string): Promise<string | null | undefined> {
  const [machine] = await db().select({ fileStorage: simMachines.fileStorage }).from(simMachines).where(eq(simMachines.instanceId, instanceId));
  return machine?.fileStorage;
}

async function mountedFlag(instanceId: string): Promise<boolean | undefined> {
  const [row] = await db().select({ mounted: instances.fileStorageMounted }).from(instances).where(eq(instances.instanceId, instanceId));
  return row?.mounted;
}

const post = (user: User, url: string, payload: Record<string, unknown>) => call(t.app, { method: 'POST', url, token: user.jwtToken, payload });

describe('文件存储 in instances', () => {
  it('mounts the store of the region in an instance created after it, and only that region’s', async () => {
    const user = await fundedUser();
    await initialiseStore(user);
    const instanceId = await rent(user);
    // The create under way mounts it.
    expect(await shown(user, instanceId)).toEqual(['mounted', 'mounted']);
    await settle();
    expect(await machineStore(instanceId)).toBe(fileStorageKey(user.id, ZONE));
    expect(await mountedFlag(instanceId)).toBe(true);
    expect(await shown(user, instanceId)).toEqual(['mounted', 'mounted']);

    // Another region: no store there, nothing mounted.
    const elsewhere = await rent(user, 'nm-b-4090-01');
    await settle();
    expect(await machineStore(elsewhere)).toBeNull();
    expect(await shown(user, elsewhere)).toEqual(['none', 'none']);
  }, 60_000);

  it('shows 需重启后挂载 on an instance that started before the store, and mounts it from the next power-on', async () => {
    const user = await fundedUser();
    const instanceId = await rent(user);
    await settle();
    expect(await shown(user, instanceId)).toEqual(['none', 'none']);

    await initialiseStore(user);
    expect(await shown(user, instanceId)).toEqual(['restartNeeded', 'restartNeeded']);
    expect(await machineStore(instanceId)).toBeNull();

    expect((await post(user, '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle();
    expect(await shown(user, instanceId)).toEqual(['restartNeeded', 'restartNeeded']);
    expect((await post(user, '/api/v1/rental/power_on', { instanceId, mode: 'nogpu' })).status).toBe(200);
    await settle();
    expect(await machineStore(instanceId)).toBe(fileStorageKey(user.id, ZONE));
    expect(await mountedFlag(instanceId)).toBe(true);
    expect(await shown(user, instanceId)).toEqual(['mounted', 'mounted']);

    // A store deleted (in arrears) is no store: nothing to show.
    await db().update(fileStorages).set({ deletedAt: t.deps.now() }).where(and(eq(fileStorages.ownerId, user.id), isNull(fileStorages.deletedAt)));
    expect(await shown(user, instanceId)).toEqual(['none', 'none']);
  }, 60_000);
});

describe('文件存储 in elastic containers', () => {
  it('mounts the owner’s store of the container’s region', async () => {
    const user = await fundedUser();
    for (const zone of await db().select({ id: zones.id }).from(zones)) await initialiseStore(user, zone.id);
    const created = await call<ElasticCreated>(t.app, {
      method: 'POST',
      url: '/api/v1/elastic',
      token: user.jwtToken,
      payload: { type: 'REPLICA_SET', imageId: 'pytorch-2.5.1-py3.12-cu124', gpuNum: 1, replicaNum: 1, name: 'fs' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const reconciler = new Reconciler(t.deps);
    await new ElasticController(t.deps).tick();
    await reconciler.tick();
    t.clock.advance(3);
    await reconciler.tick();

    const containers = await call<Page<ElasticContainerView>>(t.app, { method: 'GET', url: `/api/v1/elastic/${created.body.result.deploymentUid}/instances?page=1&pageSize=10`, token: user.jwtToken });
    const [container] = containers.body.result.list;
    if (!container) throw new Error(JSON.stringify(containers.body));
    expect(container).toMatchObject({ status: 'PoweredOn', fileStorage: 'mounted' });
    expect(await machineStore(container.instanceId)).toBe(fileStorageKey(user.id, container.zoneId));
    expect(await mountedFlag(container.instanceId)).toBe(true);
  }, 60_000);
});
