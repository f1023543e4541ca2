import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ErrorCodes, type Page } from '@slg/shared';
import type { ElasticContainerView, ElasticCreated, ElasticDeploymentView, ElasticOverview, TimePackRefund, TimePackView } from '@slg/shared/views/elastic';
import { call, createTestApp, loginToken, registerUser, type TestApp } from '../../../test/helpers.js';
import { postTransaction, unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { elasticDeployments, gpuModels, hosts, instances, timePacks, wallets } from '../../db/schema/index.js';
import { Reconciler } from '../rental/reconciler.js';
import { InstanceBillingJobs } from '../rental/billing-jobs.js';
import { meterOpenRuns } from '../rental/metering.js';
import { ElasticController } from './controller.js';
import { TimePackService } from './time-packs.js';
import { ElasticService } from './service.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
/** A GPU-hour of the test fleets costs 3600 fen: a fen per GPU-second, so money and seconds compare exactly. */
const RATE = 3600;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_DESTROY_SECONDS: '1', SIM_STOP_SECONDS: '1', SIM_JOB_SECONDS: '5' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
type User = Awaited<ReturnType<typeof registerUser>>;

let fleetCounter = 0;
/** A GPU model of its own (so no other test's deployment lands here) on `count` hosts of `gpus` GPUs each. */
async function fleet(count: number, gpus = 8): Promise<{ model: string; hosts: string[] }> {
  fleetCounter += 1;
  const model = `tm-${process.pid % 10_000}-${fleetCounter}`;
  await db().insert(gpuModels).values({ id: model, name: `测试卡${fleetCounter}`, memoryGb: 24, architecture: 'Test', fp32Tflops: 1, pricePerHourFen: RATE });
  const [template] = await db().select().from(hosts).where(eq(hosts.id, 'nm-b-4090-01'));
  if (!template) throw new Error('no template host');
  const ids = Array.from({ length: count }, (_, index) => `${model}-h${index}`);
  await db()
    .insert(hosts)
    .values(ids.map((id, index) => ({ ...template, id, name: `测试主机${fleetCounter}-${index}`, gpuModelId: model, gpuTotal: gpus, gpuAllocated: 0, dataDiskAllocatedGb: 0, usagePriceFen: null, simFault: null, simFaultReason: null })));
  return { model, hosts: ids };
}

async function fundedUser(fen: number): Promise<User> {
  const user = await registerUser(t);
  const [account] = await db().select({ id: wallets.accountId }).from(wallets).innerJoin(sql`users u`, sql`u.id = ${wallets.accountId}`).where(sql`u.telephone = ${user.telephone}`);
  if (!account) throw new Error('no wallet');
  await db().transaction((tx) =>
    postTransaction(tx, {
      type: 'GIFT',
      channel: 'GIFT',
      description: '测试赠送余额',
      lines: [
        { wallet: account.id, amountFen: fen },
        { platform: 'gifts', amountFen: -fen },
      ],
      now: t.deps.now(),
    }),
  );
  return user;
}

async function token(user: User): Promise<string> {
  user.jwtToken = await loginToken(t, user.telephone);
  return user.jwtToken;
}

async function api<T>(user: User, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) {
  return call<T>(t.app, { method, url: `/api/v1${url}`, token: await token(user), ...(payload !== undefined ? { payload } : {}) });
}

async function create(user: User, body: Record<string, unknown>): Promise<ElasticCreated> {
  const created = await api<ElasticCreated>(user, 'POST', '/elastic', { type: 'REPLICA_SET', imageId: IMAGE, gpuNum: 1, replicaNum: 1, ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.result;
}

/** What the platform's jobs do in a few seconds: the machines move on, containers are watched, deployments reconciled. */
async function pass(seconds = 0): Promise<void> {
  const reconciler = new Reconciler(t.deps);
  await reconciler.tick();
  if (seconds > 0) t.clock.advance(seconds);
  await reconciler.tick();
  await reconciler.watch(500, 'elastic');
  await new ElasticController(t.deps).tick();
  await reconciler.tick();
}

async function containersOf(deploymentId: number) {
  return db().select().from(instances).where(eq(instances.deploymentRowId, deploymentId));
}

async function deploymentRow(id: number) {
  const [row] = await db().select().from(elasticDeployments).where(eq(elasticDeployments.id, id));
  if (!row) throw new Error(`no deployment ${id}`);
  return row;
}

const running = (rows: (typeof instances.$inferSelect)[]) => rows.filter((row) => row.endedAt === null && row.status === 'PoweredOn');

describe('creating a deployment', () => {
  it('refuses bad input in Chinese, a name that exists with 40026, and a balance short of an hour of every replica', async () => {
    const { model } = await fleet(2);
    const user = await fundedUser(RATE * 2);
    const bad = await api<null>(user, 'POST', '/elastic', { name: 'a b', type: 'JOB', imageId: IMAGE, gpuNum: 0, replicaNum: 1, env: { '1X': 'v' } });
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toMatch(/名称|GPU|环境变量/);

    await create(user, { name: 'svc', gpuModelIds: [model], replicaNum: 2 });
    await pass();
    const clash = await api<null>(user, 'POST', '/elastic', { name: 'svc', type: 'REPLICA_SET', imageId: IMAGE, gpuNum: 1, replicaNum: 1, gpuModelIds: [model] });
    expect(clash.body.code).toBe(ErrorCodes.NAME_EXISTS.code);
    expect(clash.body.rspmsg).toContain('svc');

    // Two replicas already cost 2 × RATE an hour: a third needs a third hour's worth.
    const short = await api<null>(user, 'POST', '/elastic', { name: 'more', type: 'REPLICA_SET', imageId: IMAGE, gpuNum: 1, replicaNum: 1, gpuModelIds: [model] });
    expect(short.body.code).toBe(ErrorCodes.INSUFFICIENT_BALANCE.code);
    expect(short.body.rspmsg).toContain('创建弹性部署');

    const nowhere = await api<null>(user, 'POST', '/elastic', { name: 'x', type: 'REPLICA_SET', imageId: IMAGE, gpuNum: 1, replicaNum: 1, gpuModelIds: [model], priceMaxFen: 1 });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.rspmsg).toContain('没有满足筛选条件的主机');
  });
});

describe('a replica set', () => {
  it('keeps 3 running, spread over hosts, when one container’s host fails', async () => {
    const { model } = await fleet(4);
    const user = await fundedUser(RATE * 100);
    const { id } = await create(user, { name: 'web', gpuModelIds: [model], replicaNum: 3 });
    await pass();
    await pass(3);
    let rows = await containersOf(id);
    expect(running(rows)).toHaveLength(3);
    expect(new Set(rows.map((row) => row.hostId)).size).toBe(3);

    const victim = rows[0];
    if (!victim) throw new Error('no container');
    await db().update(hosts).set({ simFault: 'unreachable', simFaultReason: '主机断电' }).where(eq(hosts.id, victim.hostId));
    await pass();
    await pass(3);
    rows = await containersOf(id);
    const live = running(rows);
    expect(live).toHaveLength(3);
    expect(live.map((row) => row.hostId)).not.toContain(victim.hostId);
    const [lost] = rows.filter((row) => row.id === victim.id);
    expect(lost?.endedAt).not.toBeNull();
    expect(lost?.endReason).toContain('主机失联');

    const list = await api<Page<ElasticDeploymentView>>(user, 'GET', '/elastic/list');
    const view = list.body.result.list.find((item) => item.id === id);
    expect(view).toMatchObject({ status: 'RUNNING', runningNum: 3, replicaNum: 3, costPerHourFen: 3 * RATE });

    // The host answers again: the lost container is released and its GPUs go back.
    await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, victim.hostId));
    await pass();
    await db().update(hosts).set({ simFault: null }).where(eq(hosts.id, victim.hostId));
    await new Reconciler(t.deps).watch();
    await pass(2);
    await pass(2);
    const [host] = await db().select().from(hosts).where(eq(hosts.id, victim.hostId));
    expect(host?.gpuAllocated).toBe(0);
  });

  it('waits in 创建中 naming the filter without stock, and is placed as soon as stock appears', async () => {
    const { model, hosts: ids } = await fleet(1, 1);
    const user = await fundedUser(RATE * 100);
    const { id } = await create(user, { name: 'wait', gpuModelIds: [model], replicaNum: 2 });
    await pass();
    let deployment = await deploymentRow(id);
    expect((await containersOf(id)).length).toBe(1);
    expect(deployment.waitingNum).toBe(1);
    expect(deployment.waitingReason).toContain('所选GPU型号');

    await db().update(hosts).set({ gpuTotal: 2 }).where(eq(hosts.id, ids[0] ?? ''));
    await pass();
    deployment = await deploymentRow(id);
    expect(deployment.waitingNum).toBe(0);
    expect((await containersOf(id)).length).toBe(2);
  });

  it('replaces outdated containers one at a time after an edit, never running fewer than wanted', async () => {
    const { model } = await fleet(3);
    const user = await fundedUser(RATE * 100);
    const { id } = await create(user, { name: 'roll', gpuModelIds: [model], replicaNum: 2 });
    await pass();
    await pass(3);
    // A new environment (a command would exit on the simulated fleet, and the replica set would replace it anyway).
    const edited = await api<ElasticDeploymentView>(user, 'POST', `/elastic/${id}/edit`, { env: { MODEL: 'v2' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    for (let round = 0; round < 12; round += 1) {
      await pass(2);
      const live = running(await containersOf(id));
      expect(live.length).toBeGreaterThanOrEqual(2);
    }
    const live = (await containersOf(id)).filter((row) => row.endedAt === null);
    expect(live).toHaveLength(2);
    expect(live.every((row) => row.templateVersion === 2 && row.env?.['MODEL'] === 'v2')).toBe(true);
  });

  it('edit to 1 releases one (listed in 已释放实例); lock refuses delete until unlocked; delete stops and removes', async () => {
    const { model } = await fleet(2);
    const user = await fundedUser(RATE * 100);
    const { id, deploymentUid } = await create(user, { name: 'shrink', gpuModelIds: [model], replicaNum: 2 });
    await pass();
    await pass(3);
    // To none (the deployment stays), then to 1.
    const none = await api<ElasticDeploymentView>(user, 'POST', `/elastic/${id}/edit`, { replicaNum: 0 });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    await api(user, 'POST', `/elastic/${id}/edit`, { replicaNum: 1 });
    await pass(2);
    const released = await api<Page<ElasticContainerView>>(user, 'GET', `/elastic/${deploymentUid}/instances?released=true`);
    expect(released.body.result.total).toBe(1);
    expect(released.body.result.list[0]?.endReason).toContain('副本数调整为 1');
    const all = await api<Page<ElasticContainerView>>(user, 'GET', '/elastic/released');
    expect(all.body.result.list.some((item) => item.deploymentName === 'shrink' && item.chargedFen > 0)).toBe(true);

    expect((await api(user, 'PUT', `/elastic/${id}/lock`)).status).toBe(200);
    for (const [method, url] of [
      ['DELETE', `/elastic/${id}`],
      ['PUT', `/elastic/${id}/stop`],
      ['POST', `/elastic/${id}/edit`],
    ] as const) {
      const refused = await api<null>(user, method, url, method === 'POST' ? { replicaNum: 3 } : undefined);
      expect(refused.status).toBe(409);
      expect(refused.body.rspmsg).toContain('已锁定');
    }
    expect((await api(user, 'PUT', `/elastic/${id}/unlock`)).status).toBe(200);
    expect((await api(user, 'DELETE', `/elastic/${id}`)).status).toBe(200);
    const list = await api<Page<ElasticDeploymentView>>(user, 'GET', '/elastic/list');
    expect(list.body.result.list.some((item) => item.id === id)).toBe(false);
    await pass(2);
    await pass(2);
    expect((await deploymentRow(id)).status).toBe('STOPPED');
    expect((await containersOf(id)).every((row) => row.releasedAt !== null)).toBe(true);
  });
});

describe('a job', () => {
  it('of 4 with parallelism 2 never runs more than 2 and ends FINISHED', async () => {
    const { model } = await fleet(4);
    const user = await fundedUser(RATE * 100);
    const { id } = await create(user, { name: 'train', type: 'JOB', gpuModelIds: [model], replicaNum: 4, parallelismNum: 2, cmd: 'python train.py' });
    let most = 0;
    for (let round = 0; round < 20 && (await deploymentRow(id)).status === 'RUNNING'; round += 1) {
      await pass(2);
      const live = (await containersOf(id)).filter((row) => row.endedAt === null && row.releasedAt === null && row.status !== 'DestroyStarted');
      most = Math.max(most, live.length);
      expect(live.length).toBeLessThanOrEqual(2);
    }
    const deployment = await deploymentRow(id);
    expect(most).toBe(2);
    expect(deployment.status).toBe('FINISHED');
    expect(deployment.succeededNum).toBe(4);
    expect((await containersOf(id)).every((row) => row.exitCode === 0)).toBe(true);
  });

  it('whose containers fail is retried 3 times, then fails with its reason', async () => {
    const { model } = await fleet(2);
    const user = await fundedUser(RATE * 100);
    const { id } = await create(user, { name: 'broken', type: 'JOB', gpuModelIds: [model], replicaNum: 1, cmd: 'exit 3' });
    for (let round = 0; round < 30 && (await deploymentRow(id)).status === 'RUNNING'; round += 1) await pass(2);
    for (let round = 0; round < 5; round += 1) await pass(2);
    const deployment = await deploymentRow(id);
    expect(deployment.status).toBe('STOPPED');
    expect(deployment.failedNum).toBe(4);
    expect(deployment.statusReason).toContain('已重试 3 次');
    expect(deployment.statusReason).toContain('退出码 3');
  });
});

describe('a temporary container', () => {
  it('runs its command once and finishes', async () => {
    const { model } = await fleet(1);
    const user = await fundedUser(RATE * 100);
    const { id } = await create(user, { name: 'once', type: 'CONTAINER', gpuModelIds: [model], cmd: 'python eval.py' });
    for (let round = 0; round < 10; round += 1) await pass(2);
    const deployment = await deploymentRow(id);
    expect(deployment.status).toBe('FINISHED');
    expect(await containersOf(id)).toHaveLength(1);
  });
});

describe('concurrency', () => {
  it('20 parallel edits and stops leave a consistent deployment', async () => {
    const { model, hosts: ids } = await fleet(3);
    const user = await fundedUser(RATE * 1000);
    const { id } = await create(user, { name: 'race', gpuModelIds: [model], replicaNum: 3 });
    await pass();
    await pass(3);
    const auth = await token(user);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 4 === 3
          ? call(t.app, { method: 'PUT', url: `/api/v1/elastic/${id}/stop`, token: auth })
          : call(t.app, { method: 'POST', url: `/api/v1/elastic/${id}/edit`, token: auth, payload: { replicaNum: 1 + (index % 5) } }),
      ),
    );
    expect(answers.every((answer) => [200, 409].includes(answer.status))).toBe(true);
    expect(answers.filter((answer) => answer.status === 200 && answer.body && (answer.body as { result?: { status?: string } }).result?.status === 'STOPPING').length).toBeGreaterThanOrEqual(1);
    for (let round = 0; round < 4; round += 1) await pass(2);
    const deployment = await deploymentRow(id);
    expect(deployment.status).toBe('STOPPED');
    const rows = await containersOf(id);
    expect(rows.every((row) => row.endedAt !== null && row.releasedAt !== null && row.runStartedAt === null)).toBe(true);
    const allocated = await db().select({ gpus: sql<number>`coalesce(sum(${hosts.gpuAllocated}), 0)::int` }).from(hosts).where(sql`${hosts.id} = any(${`{${ids.join(',')}}`}::text[])`);
    expect(allocated[0]?.gpus).toBe(0);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });
});

describe('time packs', () => {
  it('are drawn down by the second before the wallet; draw-down + wallet = rate × seconds exactly; refund preview = applied', async () => {
    const { model } = await fleet(1);
    const user = await fundedUser(RATE * 200);
    const quote = await api<{ priceFen: number }>(user, 'GET', `/elastic/time-bundle/quote?gpuModelId=${model}&hours=10`);
    expect(quote.body.result.priceFen).toBe(RATE * 10);
    const bought = await api<{ id: number; orderId: string }>(user, 'POST', '/elastic/time-bundle', { gpuModelId: model, hours: 10, validDays: 30 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const packId = bought.body.result.id;
    // A second pack of only 100 GPU-seconds... is not possible (whole hours); the 10 h pack is run down instead.
    const { id } = await create(user, { name: 'packed', gpuModelIds: [model], gpuNum: 2 });
    await pass();
    await pass(3);
    const [container] = running(await containersOf(id));
    if (!container?.runStartedAt) throw new Error('container not running');
    t.clock.freeze();
    const walletBefore = await walletOf(container.walletId);

    // An hour: 7,200 GPU-seconds from the pack, nothing from the wallet.
    t.clock.advance(3600);
    await meterOpenRuns(db(), t.deps.now());
    let [pack] = await db().select().from(timePacks).where(eq(timePacks.id, packId));
    const ranFirst = Math.floor((t.deps.now().getTime() - container.runStartedAt.getTime()) / 1000);
    expect(pack?.balanceSeconds).toBe(36_000 - 2 * ranFirst);
    expect(await walletOf(container.walletId)).toBe(walletBefore);

    // Past the pack's end: the wallet pays the rest of the run.
    t.clock.advance(4 * 3600);
    await meterOpenRuns(db(), t.deps.now());
    [pack] = await db().select().from(timePacks).where(eq(timePacks.id, packId));
    expect(pack?.balanceSeconds).toBe(0);
    const stop = await api(user, 'PUT', `/elastic/${id}/stop`);
    expect(stop.status).toBe(200);
    const [ended] = await db().select().from(instances).where(eq(instances.id, container.id));
    const seconds = Math.floor((t.deps.now().getTime() - container.runStartedAt.getTime()) / 1000);
    const walletPaid = walletBefore - (await walletOf(container.walletId));
    const packPaidFen = ((36_000 - (pack?.balanceSeconds ?? 0)) * RATE) / 3600;
    expect(walletPaid + packPaidFen).toBe((2 * RATE * seconds) / 3600);
    expect(ended?.totalChargedFen).toBe(walletPaid);
    expect(ended?.totalPackSeconds).toBe(18_000);
    t.clock.thaw();

    // A fresh pack, partly used, refunds exactly what its preview said.
    const second = await api<{ id: number }>(user, 'POST', '/elastic/time-bundle', { gpuModelId: model, hours: 3, validDays: 7 });
    await db().update(timePacks).set({ balanceSeconds: 7777 }).where(eq(timePacks.id, second.body.result.id));
    const preview = await api<TimePackRefund>(user, 'GET', `/elastic/time-bundle/refund?id=${second.body.result.id}`);
    expect(preview.body.result).toEqual({ paid: RATE * 3, used: RATE * 3 - Math.floor((RATE * 3 * 7777) / 10_800), refund: Math.floor((RATE * 3 * 7777) / 10_800) });
    const before = await walletOf(container.walletId);
    const applied = await api<TimePackRefund>(user, 'POST', '/elastic/time-bundle/refund', { id: second.body.result.id });
    expect(applied.body.result).toEqual(preview.body.result);
    expect((await walletOf(container.walletId)) - before).toBe(preview.body.result.refund);
    const again = await api<null>(user, 'POST', '/elastic/time-bundle/refund', { id: second.body.result.id });
    expect(again.status).toBe(409);
    const packs = await api<Page<TimePackView>>(user, 'GET', '/elastic/time-bundle');
    expect(packs.body.result.list.map((item) => item.status).sort()).toEqual(['IN_USE', 'REFUNDED']);
    expect(await unbalancedTransactions(db())).toEqual([]);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('are drawn soonest-expiring first, shared by the containers of their model in id order, by whole seconds', async () => {
    const { model } = await fleet(2);
    const user = await fundedUser(RATE * 200);
    const { id } = await create(user, { name: 'shared', gpuModelIds: [model], replicaNum: 2, gpuNum: 2 });
    await pass();
    await pass(3);
    const live = running(await containersOf(id)).sort((a, b) => a.id - b.id);
    expect(live).toHaveLength(2);
    const [first, second] = live;
    if (!first?.runStartedAt || !second?.runStartedAt) throw new Error('containers not running');
    const walletId = first.walletId;
    const now = t.deps.now();
    // Two packs straight into the table: 1,001 GPU-seconds ending tomorrow, 301 ending in a week.
    const [soon, later] = await db()
      .insert(timePacks)
      .values([
        { ownerId: walletId, creatorId: walletId, walletId, gpuModelId: model, hours: 1, validDays: 1, totalSeconds: 3600, balanceSeconds: 1001, status: 'IN_USE', expiresAt: new Date(now.getTime() + 86_400_000), paidFen: RATE },
        { ownerId: walletId, creatorId: walletId, walletId, gpuModelId: model, hours: 1, validDays: 7, totalSeconds: 3600, balanceSeconds: 301, status: 'IN_USE', expiresAt: new Date(now.getTime() + 7 * 86_400_000), paidFen: RATE },
      ])
      .returning();
    t.clock.freeze();
    t.clock.advance(600);
    await meterOpenRuns(db(), t.deps.now());
    const rows = await db().select().from(instances).where(eq(instances.deploymentRowId, id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const seconds = (row: typeof first) => Math.floor((t.deps.now().getTime() - (row.runStartedAt?.getTime() ?? 0)) / 1000);
    const demand = seconds(first) * 2 + seconds(second) * 2;
    const packs = await db().select().from(timePacks).where(sql`${timePacks.id} in (${soon?.id ?? 0}, ${later?.id ?? 0})`);
    const left = new Map(packs.map((pack) => [pack.id, pack.balanceSeconds]));
    // The first container is covered whole; the second takes what remains, by whole seconds (2 GPU-seconds each).
    expect(byId.get(first.id)?.runPackSeconds).toBe(seconds(first));
    const remaining = 1302 - seconds(first) * 2;
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(seconds(second) * 2);
    expect(byId.get(second.id)?.runPackSeconds).toBe(Math.min(seconds(second), Math.floor(remaining / 2)));
    const drawn = (byId.get(first.id)?.runPackSeconds ?? 0) * 2 + (byId.get(second.id)?.runPackSeconds ?? 0) * 2;
    expect(drawn).toBeLessThanOrEqual(demand);
    expect(left.get(soon?.id ?? 0)).toBe(Math.max(0, 1001 - drawn));
    expect(left.get(later?.id ?? 0)).toBe(301 - Math.max(0, drawn - 1001));
    // An odd GPU-second is left: a 2-GPU container takes whole seconds only.
    expect((left.get(soon?.id ?? 0) ?? 0) + (left.get(later?.id ?? 0) ?? 0)).toBe(remaining % 2);
    t.clock.thaw();
  });

  it('expire at the end of their validity', async () => {
    const { model } = await fleet(1);
    const user = await fundedUser(RATE * 10);
    await api(user, 'POST', '/elastic/time-bundle', { gpuModelId: model, hours: 1, validDays: 1 });
    t.clock.advance(86_401);
    expect(await new TimePackService(t.deps).expire()).toBeGreaterThanOrEqual(1);
    const packs = await api<Page<TimePackView>>(user, 'GET', '/elastic/time-bundle?status=EXPIRED');
    expect(packs.body.result.total).toBe(1);
  });
});

describe('arrears', () => {
  it('stop the deployments of a wallet below zero, which show why', async () => {
    const { model } = await fleet(1);
    const user = await fundedUser(RATE);
    const { id } = await create(user, { name: 'poor', gpuModelIds: [model] });
    await pass();
    await pass(3);
    t.clock.advance(2 * 3600);
    await new InstanceBillingJobs(t.deps).meterAndEnforce();
    const deployment = await deploymentRow(id);
    expect(deployment.status).toBe('STOPPING');
    expect(deployment.statusReason).toContain('余额不足');
    const live = await db().select().from(instances).where(and(eq(instances.deploymentRowId, id), isNull(instances.endedAt)));
    expect(live).toHaveLength(0);
  });
});

describe('ports', () => {
  it('are published on each container once it runs, and listed with its address', async () => {
    const { model } = await fleet(1);
    const user = await fundedUser(RATE * 100);
    const { deploymentUid } = await create(user, { name: 'ports', gpuModelIds: [model], ports: [{ port: 8000, protocol: 1 }, { port: 9000, protocol: 2 }] });
    await pass();
    await pass(3);
    expect(await new ElasticService(t.deps).exposeContainerPorts()).toBe(1);
    expect(await new ElasticService(t.deps).exposeContainerPorts()).toBe(0);
    const listed = await api<Page<ElasticContainerView>>(user, 'GET', `/elastic/${deploymentUid}/instances`);
    const [container] = listed.body.result.list;
    expect(container?.ports.map((port) => port.port)).toEqual([8000, 9000]);
    expect(container?.ports[0]?.address).toMatch(new RegExp(`^https://${container?.instanceId}-8000\\.`));
    expect(container?.ports[1]?.address).toMatch(/:\d+$/);
    const bad = await api<null>(user, 'POST', '/elastic', { name: 'p2', type: 'REPLICA_SET', imageId: IMAGE, gpuNum: 1, replicaNum: 1, ports: [{ port: 22, protocol: 2 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toContain('SSH');
  });
});

describe('overview and scoping', () => {
  it('counts running deployments and their cost; the containers are not 容器实例', async () => {
    const { model } = await fleet(1);
    const user = await fundedUser(RATE * 100);
    await create(user, { name: 'ov', gpuModelIds: [model] });
    await pass();
    await pass(3);
    const overview = await api<ElasticOverview>(user, 'POST', '/elastic/overview');
    expect(overview.body.result).toMatchObject({ running: 1, containersRunning: 1, costPerHourFen: RATE });
    expect(overview.body.result.stock.some((row) => row.gpuModelId === model && row.free === 7)).toBe(true);
    const rented = await api<Page<unknown>>(user, 'GET', '/rental');
    expect(rented.status, JSON.stringify(rented.body)).toBe(200);
    expect(rented.body.result.total).toBe(0);
  });
});

async function walletOf(walletId: number): Promise<number> {
  const [wallet] = await db().select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId));
  return wallet?.balance ?? 0;
}
