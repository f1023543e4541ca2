import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Page } from '@slg/shared';
import { call, createTestApp, loginToken, registerUser, type TestApp } from '../../../test/helpers.js';
import { auditLogs, hosts } from '../../db/schema/index.js';
import { makeOperator } from '../invoices/test-factories.js';
import type { MarketHost, MarketOverview } from './service.js';

let t: TestApp;
let operatorPhone: string;

beforeAll(async () => {
  t = await createTestApp();
  operatorPhone = (await registerUser(t)).telephone;
  await makeOperator(t.deps.database.db, operatorPhone);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;

/** The market answers are up to a second old: step past that before reading again. */
async function market(query: string) {
  t.clock.advance(2);
  return call<Page<MarketHost>>(t.app, { method: 'GET', url: `/api/v1/comppower?${query}` });
}

describe('算力市场', () => {
  it('lists the hosts of a zone and GPU model, signed out, cheapest first, with every field the console shows', async () => {
    const answer = await market('zoneId=bj-a&gpuModelId=rtx4090&pageSize=50');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { list: items, total } = answer.body.result;
    expect(total).toBe(8);
    expect(items.every((host) => host.zoneId === 'bj-a' && host.gpuModelId === 'rtx4090')).toBe(true);
    expect(items[0]).toMatchObject({
      chargingRuleId: 1,
      pricePerGpuFen: 198,
      unit: '时',
      gpuTotal: 8,
      cpuPerGpu: 16,
      memoryGbPerGpu: 90,
      dataDiskMaxGb: 1500,
      cudaVersion: '12.4',
    });
    expect(items[0]?.gpuFree).toBeGreaterThan(0);
    const prices = items.map((host) => host.pricePerGpuFen);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('shows only hosts that can take gpuNum GPUs now, and package prices per day', async () => {
    await db().update(hosts).set({ gpuAllocated: 1 }).where(eq(hosts.id, 'bj-a-4090-01'));
    const eight = await market('zoneId=bj-a&gpuModelId=rtx4090&gpuNum=8&pageSize=50');
    expect(eight.body.result.list.map((host) => host.hostId)).not.toContain('bj-a-4090-01');
    expect(eight.body.result.total).toBe(7);
    const seven = await market('zoneId=bj-a&gpuModelId=rtx4090&gpuNum=7&pageSize=50');
    expect(seven.body.result.list.find((host) => host.hostId === 'bj-a-4090-01')).toMatchObject({ gpuFree: 7, gpuTotal: 8 });
    const daily = await market('zoneId=bj-a&gpuModelId=rtx4090&chargingRuleId=2&pageSize=1');
    expect(daily.body.result.list[0]).toMatchObject({ chargingRuleId: 2, unit: '天', pricePerGpuFen: 198 * 22 });
    await db().update(hosts).set({ gpuAllocated: 0 }).where(eq(hosts.id, 'bj-a-4090-01'));
  });

  it('gives one host by its id', async () => {
    const one = await market('hostId=hd-a-l20-02');
    expect(one.body.result.total).toBe(1);
    expect(one.body.result.list[0]).toMatchObject({ hostId: 'hd-a-l20-02', gpuModelId: 'l20', zoneId: 'hd-a' });
    const bad = await market('hostId=..%2Fetc');
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toBe('主机ID格式不正确');
  });

  it('refuses bad filters in Chinese', async () => {
    for (const [query, message] of [
      ['gpuNum=9', 'GPU数量不能超过8'],
      ['gpuNum=0', 'GPU数量至少为1'],
      ['chargingRuleId=7', '计费方式不正确，可选 1 按量计费、2 包日、3 包周、4 包月'],
      ['sort=random', '排序方式必须是 price（价格从低到高）或 free（空闲卡数从多到少）'],
    ] as const) {
      const answer = await market(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.rspmsg, query).toBe(message);
    }
  });

  it('searches host names, zones and GPU models, taking % and _ literally', async () => {
    t.clock.advance(2);
    const found = await call<Page<MarketHost>>(t.app, { method: 'GET', url: `/api/v1/comppower/search?name=${encodeURIComponent('北京a区-4090-0')}&pageSize=50` });
    expect(found.status).toBe(200);
    expect(found.body.result.total).toBe(8);
    const literal = await call<Page<MarketHost>>(t.app, { method: 'GET', url: `/api/v1/comppower/search?name=${encodeURIComponent('%')}` });
    expect(literal.body.result.total).toBe(0);
  });

  it('sums free and total GPUs with the lowest price per GPU model, zone and both', async () => {
    t.clock.advance(2);
    const overview = await call<MarketOverview>(t.app, { method: 'GET', url: '/api/v1/comppower/overview' });
    expect(overview.status).toBe(200);
    const cell = overview.body.result.cells.find((entry) => entry.zoneId === 'bj-a' && entry.gpuModelId === 'rtx4090');
    expect(cell).toMatchObject({ hostCount: 8, gpuTotal: 64, gpuFree: 64, maxFreeOnHost: 8, minPricePerGpuFen: 198 });
    const model = overview.body.result.gpuModels.find((entry) => entry.gpuModelId === 'rtx4090');
    expect(model?.gpuTotal).toBe(8 * (8 + 6 + 6 + 4 + 5));
  });
});

describe('operator fleet API', () => {
  const newHost = {
    id: 'bj-a-4090-99',
    name: '北京A区-4090-99',
    zoneId: 'bj-a',
    gpuModelId: 'rtx4090',
    cpuModelId: 'xeon-8352v',
    gpuTotal: 4,
    cpuPerGpu: 12,
    memoryGbPerGpu: 64,
    dataDiskMaxGb: 500,
    dataDiskTotalGb: 2000,
    cudaVersion: '12.4',
    driverVersion: '550.107.02',
    usagePriceFen: 150,
  };

  it('refuses users who are not operators', async () => {
    const user = await registerUser(t);
    const saved = await call(t.app, { method: 'POST', url: '/api/v1/comppower/admin', token: user.jwtToken, payload: newHost });
    expect(saved.status).toBe(403);
    const listed = await call(t.app, { method: 'GET', url: '/api/v1/comppower/admin/entities', token: user.jwtToken });
    expect(listed.status).toBe(403);
    expect((await db().select().from(hosts).where(eq(hosts.id, newHost.id))).length).toBe(0);
  });

  it('adds a host with a price override that the market shows at once, edits and delists it, all audited', async () => {
    const token = await loginToken(t, operatorPhone);
    const added = await call<{ created: boolean; host: { effectivePrices: { usage: number; day: number } } }>(t.app, {
      method: 'POST',
      url: '/api/v1/comppower/admin',
      token,
      payload: newHost,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.result.created).toBe(true);
    expect(added.body.result.host.effectivePrices).toMatchObject({ usage: 150, day: 150 * 22 });

    const listed = await call<Page<MarketHost>>(t.app, { method: 'GET', url: '/api/v1/comppower?zoneId=bj-a&gpuModelId=rtx4090&pageSize=1' });
    expect(listed.body.result.list[0]).toMatchObject({ hostId: newHost.id, pricePerGpuFen: 150, gpuFree: 4, cpuPerGpu: 12 });

    const shrink = await call(t.app, { method: 'POST', url: '/api/v1/comppower/admin', token, payload: { id: newHost.id, gpuTotal: 0 } });
    expect(shrink.status).toBe(400);
    expect(shrink.body.rspmsg).toBe('GPU总数至少为1卡');

    const delisted = await call<{ created: boolean }>(t.app, { method: 'POST', url: '/api/v1/comppower/admin', token, payload: { id: newHost.id, enabled: false } });
    expect(delisted.body.result.created).toBe(false);
    const after = await call<Page<MarketHost>>(t.app, { method: 'GET', url: '/api/v1/comppower?zoneId=bj-a&gpuModelId=rtx4090&pageSize=50' });
    expect(after.body.result.list.map((host) => host.hostId)).not.toContain(newHost.id);

    const entities = await call<Page<{ hostId: string; enabled: boolean; onMarket: boolean }>>(t.app, {
      method: 'GET',
      url: '/api/v1/comppower/admin/entities?enabled=false',
      token,
    });
    expect(entities.body.result.list).toEqual([expect.objectContaining({ hostId: newHost.id, enabled: false, onMarket: false })]);

    const audit = await db()
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(and(eq(auditLogs.targetType, 'host'), eq(auditLogs.targetId, newHost.id)));
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['host.create']));
    expect(audit.length).toBe(2);
  });
});
