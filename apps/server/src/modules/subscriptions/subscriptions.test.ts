import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import { ErrorCodes, MAX_WAITING_STOCK_ALERTS, NO_PERMISSIONS, type Page } from '@slg/shared';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { gpuModels, hosts, notifications, smsOutbox, stockSubscriptions, users, wallets, zones } from '../../db/schema/index.js';
import { Reconciler } from '../rental/reconciler.js';
import { SessionService } from '../auth/sessions.js';
import { fitSmsVariable, stockAlertDedupeKey } from '../notifications/service.js';
import { noticeParamList, noticeParamMap } from '../../providers/sms/notices.js';
import { StockAlertService, type StockAlertView } from './service.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const fire = () => new StockAlertService(t.deps).fireAlerts();

type User = Awaited<ReturnType<typeof registerUser>>;

function subscribe(token: string, payload: Record<string, unknown> | undefined) {
  return call<StockAlertView>(t.app, { method: 'POST', url: '/api/v1/subscriptions', token, payload });
}

function listOf(token: string, query = '') {
  return call<Page<StockAlertView>>(t.app, { method: 'GET', url: `/api/v1/subscriptions${query}`, token });
}

function cancel(token: string, id: number | string) {
  return call<null>(t.app, { method: 'DELETE', url: `/api/v1/subscriptions?id=${id}`, token });
}

/** Every host of a zone's GPU model fully rented (or all but `free` GPUs on the first one). */
async function soldOut(zoneId: string, gpuModelId: string): Promise<void> {
  await db()
    .update(hosts)
    .set({ gpuAllocated: sql`${hosts.gpuTotal}` })
    .where(and(eq(hosts.zoneId, zoneId), eq(hosts.gpuModelId, gpuModelId)));
}

async function freeOn(hostId: string, free: number): Promise<void> {
  await db()
    .update(hosts)
    .set({ gpuAllocated: sql`${hosts.gpuTotal} - ${free}` })
    .where(eq(hosts.id, hostId));
}

/** Alerts the job would otherwise fire together with a test's own: each firing test starts from none waiting. */
async function clearWaiting(): Promise<void> {
  await db().delete(stockSubscriptions).where(isNull(stockSubscriptions.notifiedAt));
}

async function userIdOf(user: User): Promise<number> {
  const info = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken });
  return info.body.result.userId;
}

async function textsTo(telephone: string) {
  return db().select().from(smsOutbox).where(and(eq(smsOutbox.telephone, telephone), eq(smsOutbox.type, 'stock_alert')));
}

async function notesOf(subscriptionId: number) {
  return db().select().from(notifications).where(eq(notifications.dedupeKey, stockAlertDedupeKey(subscriptionId)));
}

let subAccountCounter = 0;
/** A sub-account row written directly (creating sub-accounts is a later issue), signed in. */
async function subAccountOf(parentId: number, container: 'SELF' | 'ALL' | 'NONE'): Promise<{ id: number; token: string }> {
  subAccountCounter += 1;
  const [sub] = await db()
    .insert(users)
    .values({
      accountType: 2,
      parentId,
      username: `stock_${parentId}_${subAccountCounter}`,
      nickName: '训练组',
      permissions: { ...NO_PERMISSIONS, CONTAINER: container },
      sharedMainBalance: false,
    })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db().insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
  const session = await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  return { id: sub.id, token: session.jwtToken };
}

describe('subscribing', () => {
  it('refuses what cannot be subscribed to, each with a clear message', async () => {
    const user = await registerUser(t);
    const refusals: [Record<string, unknown>, number, string][] = [
      [{}, 400, '请输入地区；请输入GPU型号；请选择GPU数量'],
      [{ zoneId: 'bj-a', gpuModelId: 'rtx4090' }, 400, '请选择GPU数量'],
      [{ zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 0 }, 400, 'GPU数量至少为1'],
      [{ zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 9 }, 400, 'GPU数量不能超过8'],
      [{ zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 1.5 }, 400, 'GPU数量必须是整数'],
      [{ zoneId: 'BJ A', gpuModelId: 'rtx4090', gpuNum: 1 }, 400, '地区不正确'],
      [{ zoneId: 'zz-z', gpuModelId: 'rtx4090', gpuNum: 1 }, 400, '地区不存在或已下线，请重新选择'],
      [{ zoneId: 'bj-a', gpuModelId: 'rtx9090', gpuNum: 1 }, 400, 'GPU型号不存在或已下线，请重新选择'],
      [{ zoneId: 'bj-a', gpuModelId: 'a800-80g', gpuNum: 1 }, 400, '北京A区没有A800-80GB主机，无法订阅到货提醒，请选择其他地区或型号'],
    ];
    for (const [payload, status, message] of refusals) {
      const answer = await subscribe(user.jwtToken, payload);
      expect(answer.status, JSON.stringify(payload)).toBe(status);
      expect(answer.body.rspmsg, JSON.stringify(payload)).toBe(message);
    }
    expect((await listOf(user.jwtToken)).body.result.total).toBe(0);
  });

  it('allows at most the GPUs of the zone’s largest host of the model, and nothing of a disabled zone, model or host', async () => {
    const user = await registerUser(t);
    await db().update(hosts).set({ gpuTotal: 4 }).where(and(eq(hosts.zoneId, 'xb-a'), eq(hosts.gpuModelId, 'v100-32g')));
    const tooMany = await subscribe(user.jwtToken, { zoneId: 'xb-a', gpuModelId: 'v100-32g', gpuNum: 5 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.rspmsg).toBe('西北A区的V100-32GB主机最多4卡，GPU数量不能超过4');
    expect((await subscribe(user.jwtToken, { zoneId: 'xb-a', gpuModelId: 'v100-32g', gpuNum: 4 })).status).toBe(200);

    await db().update(zones).set({ enabled: false }).where(eq(zones.id, 'xb-a'));
    const closedZone = await subscribe(user.jwtToken, { zoneId: 'xb-a', gpuModelId: 'rtx3090', gpuNum: 1 });
    expect([closedZone.status, closedZone.body.rspmsg]).toEqual([400, '地区不存在或已下线，请重新选择']);
    await db().update(zones).set({ enabled: true }).where(eq(zones.id, 'xb-a'));

    await db().update(gpuModels).set({ enabled: false }).where(eq(gpuModels.id, 'l20'));
    const closedModel = await subscribe(user.jwtToken, { zoneId: 'hd-a', gpuModelId: 'l20', gpuNum: 1 });
    expect([closedModel.status, closedModel.body.rspmsg]).toEqual([400, 'GPU型号不存在或已下线，请重新选择']);
    await db().update(gpuModels).set({ enabled: true }).where(eq(gpuModels.id, 'l20'));

    // Only disabled hosts of the model in the zone: nothing to wait for.
    await db().update(hosts).set({ enabled: false }).where(and(eq(hosts.zoneId, 'hd-a'), eq(hosts.gpuModelId, 'l20')));
    const noHosts = await subscribe(user.jwtToken, { zoneId: 'hd-a', gpuModelId: 'l20', gpuNum: 1 });
    expect([noHosts.status, noHosts.body.rspmsg]).toEqual([400, '华东A区(上海)没有L20主机，无法订阅到货提醒，请选择其他地区或型号']);
    await db().update(hosts).set({ enabled: true }).where(and(eq(hosts.zoneId, 'hd-a'), eq(hosts.gpuModelId, 'l20')));
    await clearWaiting();
  });

  it('refuses the same waiting alert twice (40028), also when asked at once, and lists it with names and status', async () => {
    const user = await registerUser(t);
    const payload = { zoneId: 'nm-b', gpuModelId: 'a800-80g', gpuNum: 4 };
    const answers = await Promise.all(Array.from({ length: 5 }, () => subscribe(user.jwtToken, payload)));
    const created = answers.filter((answer) => answer.status === 200);
    expect(created.length).toBe(1);
    for (const answer of answers.filter((item) => item.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body.rspcode).toBe(ErrorCodes.STOCK_ALERT_EXISTS.code);
      expect(answer.body.rspmsg).toBe('已订阅内蒙B区 A800-80GB 4卡的到货提醒，有空闲时会通知您，请勿重复订阅');
    }
    // Another count of the same model is another alert.
    expect((await subscribe(user.jwtToken, { ...payload, gpuNum: 2 })).status).toBe(200);

    const list = await listOf(user.jwtToken);
    expect(list.status).toBe(200);
    expect(list.body.result).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    expect(list.body.result.list[0]).toMatchObject({
      zoneId: 'nm-b',
      zoneName: '内蒙B区',
      gpuModelId: 'a800-80g',
      gpuModelName: 'A800-80GB',
      gpuNum: 2,
      status: 'WAITING',
      statusName: '等待中',
      notifiedAt: null,
    });
    expect(list.body.result.list[1]?.gpuNum).toBe(4);
    const paged = await listOf(user.jwtToken, '?page=2&pageSize=1');
    expect(paged.body.result).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.body.result.list.map((item) => item.gpuNum)).toEqual([4]);
    await clearWaiting();
  });

  it(`keeps at most ${MAX_WAITING_STOCK_ALERTS} waiting alerts per user, decided atomically`, async () => {
    const user = await registerUser(t);
    const combos = [
      ...Array.from({ length: 8 }, (_, index) => ({ zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: index + 1 })),
      ...Array.from({ length: 8 }, (_, index) => ({ zoneId: 'bj-a', gpuModelId: 'rtx3090', gpuNum: index + 1 })),
      ...Array.from({ length: 8 }, (_, index) => ({ zoneId: 'nm-b', gpuModelId: 'rtx4090', gpuNum: index + 1 })),
    ];
    for (const combo of combos.slice(0, MAX_WAITING_STOCK_ALERTS - 2)) expect((await subscribe(user.jwtToken, combo)).status).toBe(200);
    // Four different alerts at once with room for two: exactly two get in.
    const answers = await Promise.all(combos.slice(MAX_WAITING_STOCK_ALERTS - 2, MAX_WAITING_STOCK_ALERTS + 2).map((combo) => subscribe(user.jwtToken, combo)));
    expect(answers.filter((answer) => answer.status === 200).length).toBe(2);
    for (const answer of answers.filter((item) => item.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body.rspmsg).toBe(`最多同时订阅${MAX_WAITING_STOCK_ALERTS}个到货提醒，请先取消不需要的提醒`);
    }
    expect((await listOf(user.jwtToken, '?status=WAITING')).body.result.total).toBe(MAX_WAITING_STOCK_ALERTS);

    // A cancelled one makes room again.
    const [first] = (await listOf(user.jwtToken)).body.result.list;
    expect((await cancel(user.jwtToken, first?.id ?? 0)).status).toBe(200);
    expect((await subscribe(user.jwtToken, combos[MAX_WAITING_STOCK_ALERTS + 2])).status).toBe(200);
    await clearWaiting();
  });
});

describe('the alert job', () => {
  it('fires nothing while sold out, then exactly once (notice and SMS) when a host frees the GPUs, even with passes in parallel', async () => {
    await clearWaiting();
    await soldOut('cq-a', 'a100-40g-pcie');
    const user = await registerUser(t);
    const created = await subscribe(user.jwtToken, { zoneId: 'cq-a', gpuModelId: 'a100-40g-pcie', gpuNum: 2 });
    expect(created.status).toBe(200);
    const id = created.body.result.id;

    expect(await fire()).toBe(0);
    // One GPU free is not the two asked for.
    await freeOn('cq-a-a100-02', 1);
    expect(await fire()).toBe(0);
    // A host with the GPUs but out of data disk cannot take an instance either.
    await db().update(hosts).set({ gpuAllocated: 0, dataDiskAllocatedGb: sql`${hosts.dataDiskTotalGb} - 10` }).where(eq(hosts.id, 'cq-a-a100-03'));
    // Nor one the operator took off the market.
    await db().update(hosts).set({ gpuAllocated: 0, enabled: false }).where(eq(hosts.id, 'cq-a-a100-04'));
    expect(await fire()).toBe(0);
    expect(await notesOf(id)).toEqual([]);
    expect((await listOf(user.jwtToken)).body.result.list[0]?.status).toBe('WAITING');

    await freeOn('cq-a-a100-02', 3);
    const firedFrom = t.deps.now().getTime();
    const passes = await Promise.all([fire(), fire()]);
    expect(passes[0] + passes[1]).toBe(1);
    expect(await fire()).toBe(0);

    const notes = await notesOf(id);
    expect(notes.length).toBe(1);
    expect(notes[0]).toMatchObject({ kind: 'STOCK_AVAILABLE', title: '到货提醒：重庆A区 A100-40GB PCIe 已有空闲' });
    expect(notes[0]?.body).toContain('您订阅的重庆A区 A100-40GB PCIe 2卡已有空闲');
    expect(notes[0]?.body).toContain('单台主机最多空闲3卡');
    const texts = await textsTo(user.telephone);
    expect(texts.length).toBe(1);
    expect(texts[0]?.content).toBe('您订阅的到货提醒：重庆A区 A100-40GB PCIe 2卡现已有空闲，请尽快登录控制台租用，空闲GPU先到先得。');

    const list = await listOf(user.jwtToken);
    expect(list.body.result.list[0]).toMatchObject({ id, status: 'NOTIFIED', statusName: '已提醒' });
    const notifiedAt = Date.parse(list.body.result.list[0]?.notifiedAt ?? '');
    expect(notifiedAt).toBeGreaterThanOrEqual(firedFrom);
    expect(notifiedAt).toBeLessThanOrEqual(t.deps.now().getTime());
    // The console's notifications show it.
    const shown = await call<Page<{ kind: string; title: string }>>(t.app, { method: 'GET', url: '/api/v1/notifications', token: user.jwtToken });
    expect(shown.body.result.list[0]).toMatchObject({ kind: 'STOCK_AVAILABLE', title: '到货提醒：重庆A区 A100-40GB PCIe 已有空闲' });

    // Fired, the same alert can be asked for again, and waits for the next free GPUs.
    await soldOut('cq-a', 'a100-40g-pcie');
    const again = await subscribe(user.jwtToken, { zoneId: 'cq-a', gpuModelId: 'a100-40g-pcie', gpuNum: 2 });
    expect(again.status).toBe(200);
    expect(await fire()).toBe(0);
    expect((await textsTo(user.telephone)).length).toBe(1);
    await clearWaiting();
  });

  it('fires when an instance powered off gives its GPUs back to a full host', async () => {
    await clearWaiting();
    // One H800 host on the market in 北京B区, all its GPUs but one rented by others.
    await db().update(hosts).set({ enabled: false }).where(and(eq(hosts.zoneId, 'bj-b'), eq(hosts.gpuModelId, 'h800-80g'), sql`${hosts.id} <> 'bj-b-h800-01'`));
    await freeOn('bj-b-h800-01', 1);
    const renter = await registerUser(t);
    await rechargeThroughSandbox(t, renter.jwtToken, 5_000);
    const rented = await call<{ instanceId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token: renter.jwtToken,
      payload: { hostId: 'bj-b-h800-01', gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
    });
    expect(rented.status, JSON.stringify(rented.body)).toBe(200);
    await new Reconciler(t.deps).tick();
    t.clock.advance(3);
    await new Reconciler(t.deps).tick();

    const waiter = await registerUser(t);
    const created = await subscribe(waiter.jwtToken, { zoneId: 'bj-b', gpuModelId: 'h800-80g', gpuNum: 1 });
    expect(created.status).toBe(200);
    expect(await fire()).toBe(0);

    const off = await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token: renter.jwtToken, payload: { instanceId: rented.body.result.instanceId } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await new Reconciler(t.deps).tick();
    t.clock.advance(3);
    await new Reconciler(t.deps).tick();
    const [host] = await db().select().from(hosts).where(eq(hosts.id, 'bj-b-h800-01'));
    expect(host && host.gpuTotal - host.gpuAllocated).toBe(1);

    expect(await fire()).toBe(1);
    expect((await notesOf(created.body.result.id)).length).toBe(1);
    expect((await textsTo(waiter.telephone))[0]?.content).toContain('北京B区 H800-80GB 1卡');
    expect(await textsTo(renter.telephone)).toEqual([]);
    await db().update(hosts).set({ enabled: true }).where(like(hosts.id, 'bj-b-h800-%'));
  });

  it('sends one SMS for several alerts of one person fired together, naming the first and how many', async () => {
    await clearWaiting();
    await soldOut('hn-a', 'rtx4090d');
    const user = await registerUser(t);
    for (const gpuNum of [1, 2, 3]) expect((await subscribe(user.jwtToken, { zoneId: 'hn-a', gpuModelId: 'rtx4090d', gpuNum })).status).toBe(200);
    await freeOn('hn-a-4090d-01', 8);
    expect(await fire()).toBe(3);
    const texts = await textsTo(user.telephone);
    expect(texts.length).toBe(1);
    expect(texts[0]?.content).toMatch(/^您订阅的到货提醒：华南A区\(广州\) RTX 4090D \d卡等3项现已有空闲/);
    const shown = await call<Page<{ kind: string }>>(t.app, { method: 'GET', url: '/api/v1/notifications', token: user.jwtToken });
    expect(shown.body.result.list.filter((note) => note.kind === 'STOCK_AVAILABLE').length).toBe(3);
  });
});

describe('ownership', () => {
  it('shows and cancels only the caller’s alerts; another user gets 404', async () => {
    await clearWaiting();
    const owner = await registerUser(t);
    const stranger = await registerUser(t);
    const created = await subscribe(owner.jwtToken, { zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 8 });
    expect(created.status).toBe(200);
    const id = created.body.result.id;

    expect((await listOf(stranger.jwtToken)).body.result).toMatchObject({ total: 0, list: [] });
    const refused = await cancel(stranger.jwtToken, id);
    expect([refused.status, refused.body.rspmsg]).toEqual([404, '到货提醒不存在']);
    expect((await listOf(owner.jwtToken)).body.result.total).toBe(1);

    expect((await cancel(owner.jwtToken, id)).status).toBe(200);
    expect((await listOf(owner.jwtToken)).body.result.total).toBe(0);
    expect((await cancel(owner.jwtToken, id)).status).toBe(404);
    const bad = await cancel(owner.jwtToken, 'abc');
    expect([bad.status, bad.body.rspmsg]).toEqual([400, '到货提醒ID必须是正整数']);
    const missing = await call(t.app, { method: 'DELETE', url: '/api/v1/subscriptions', token: owner.jwtToken });
    expect([missing.status, missing.body.rspmsg]).toEqual([400, '请输入到货提醒ID']);
  });

  it('scopes sub-accounts by the CONTAINER authority; a sub-account’s SMS goes to its main account’s phone', async () => {
    await clearWaiting();
    const main = await registerUser(t);
    const mainId = await userIdOf(main);
    const own = await subAccountOf(mainId, 'SELF');
    const none = await subAccountOf(mainId, 'NONE');
    await soldOut('bj-a', 'rtx3090');

    const bySub = await subscribe(own.token, { zoneId: 'bj-a', gpuModelId: 'rtx3090', gpuNum: 1 });
    expect(bySub.status).toBe(200);
    const byMain = await subscribe(main.jwtToken, { zoneId: 'bj-a', gpuModelId: 'rtx3090', gpuNum: 1 });
    expect(byMain.status).toBe(200);

    expect((await listOf(own.token)).body.result.list.map((item) => item.id)).toEqual([bySub.body.result.id]);
    expect((await listOf(main.jwtToken)).body.result.total).toBe(2);
    expect((await cancel(own.token, byMain.body.result.id)).status).toBe(404);
    for (const answer of [await listOf(none.token), await subscribe(none.token, { zoneId: 'bj-a', gpuModelId: 'rtx3090', gpuNum: 1 })]) {
      expect(answer.status).toBe(403);
    }

    await freeOn('bj-a-3090-01', 1);
    expect(await fire()).toBe(2);
    const [subNote] = await notesOf(bySub.body.result.id);
    expect(subNote).toMatchObject({ ownerId: mainId, creatorId: own.id, recipientId: own.id });
    // The sub-account has no phone: its alert reaches the main account's, in one text with the main account's own.
    const texts = await textsTo(main.telephone);
    expect(texts.length).toBe(1);
    expect(texts[0]?.content).toContain('北京A区 RTX 3090 1卡等2项');
  });
});

describe('the SMS of a stock alert', () => {
  it('fills the gateways’ template variables in order, each within 20 characters', async () => {
    const notice = { telephone: '13800138000', kind: 'stock_alert' as const, params: { zone: '北京A区', gpu: 'RTX 4090 2卡' } };
    expect(noticeParamList(notice)).toEqual(['北京A区', 'RTX 4090 2卡']);
    expect(noticeParamMap(notice)).toEqual({ zone: '北京A区', gpu: 'RTX 4090 2卡' });
    expect(fitSmsVariable('华东A区(上海)')).toBe('华东A区(上海)');
    const cut = fitSmsVariable('一个名字很长很长很长很长很长很长很长的地区（测试）');
    expect([...cut].length).toBe(20);
    expect(cut.endsWith('…')).toBe(true);

    // A long model name is cut so that the count still fits: 「NVIDIA A100-SXM4… 8卡」 is 20 characters.
    await clearWaiting();
    await db().update(gpuModels).set({ name: 'NVIDIA A100-SXM4-80GB Tensor Core' }).where(eq(gpuModels.id, 'a100-40g-pcie'));
    await soldOut('cq-a', 'a100-40g-pcie');
    const user = await registerUser(t);
    expect((await subscribe(user.jwtToken, { zoneId: 'cq-a', gpuModelId: 'a100-40g-pcie', gpuNum: 8 })).status).toBe(200);
    await freeOn('cq-a-a100-01', 8);
    expect(await fire()).toBe(1);
    const [text] = await textsTo(user.telephone);
    expect(text?.content).toBe('您订阅的到货提醒：重庆A区 NVIDIA A100-SXM4… 8卡现已有空闲，请尽快登录控制台租用，空闲GPU先到先得。');
    await db().update(gpuModels).set({ name: 'A100-40GB PCIe' }).where(eq(gpuModels.id, 'a100-40g-pcie'));
  });
});
