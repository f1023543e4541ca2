/**
 * The money property (docs/decisions.md "Packages"): for random sequences of create / renew /
 * GPU-count change / switch between a package and pay-as-you-go / power on and off / release over
 * random times, what a wallet paid minus what it got back equals, to the fen, what a model of the
 * pricing rules says each segment costs:
 * - a pay-as-you-go run: round(rate × seconds / 3600), at least 1 fen (DESIGN §7);
 * - a package: the pay-as-you-go price of each hour begun at the most GPUs in force during that hour,
 *   or the package's cash (purchase, renewals, added GPUs, less removed GPUs' refunds) when that is less.
 * Along the way every balance matches the model's cash flows, and every quote a user reads before
 * confirming (GPU-count change, refund preview, renewal, package price) equals what is then applied.
 *
 * Runs MONEY_PROPERTY_RUNS sequences (default 1,000 on PGlite, 200 on PostgreSQL) from
 * MONEY_PROPERTY_SEED (random when unset): `MONEY_PROPERTY_SEED=42 MONEY_PROPERTY_RUNS=5000 npm run
 * test:money -w apps/server`. A failure prints the seed, the path and the shrunk sequence to replay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { TIME_PACKAGE_COUNTS, TIME_PACKAGE_KEYS, type PackageKey } from '@slg/shared';
import type { Transaction } from '../src/db/client.js';
import { instances, wallets } from '../src/db/schema/index.js';
import { Reconciler } from '../src/modules/rental/reconciler.js';
import type { Principal } from '../src/core/principal.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../src/modules/billing/ledger.js';
import { GpuCountService } from '../src/modules/rental/gpu-count.js';
import { meterOpenRuns } from '../src/modules/rental/metering.js';
import { PackageService } from '../src/modules/rental/packages.js';
import { RentalService } from '../src/modules/rental/service.js';
import { createTestApp, type TestApp } from './helpers.js';
import { insertHost, insertMainAccount } from './factories.js';

const RUNS = Number(process.env.MONEY_PROPERTY_RUNS ?? (process.env.DATABASE_URL ? 200 : 1000));
const SEED = process.env.MONEY_PROPERTY_SEED === undefined ? undefined : Number(process.env.MONEY_PROPERTY_SEED);
const HOUR_MS = 3_600_000;
const NO_GPU_PRICE = 10;
const START_BALANCE = 1_000_000_000;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';

// ---- the model: written from the rules, sharing no pricing code with the server -----------------------

const PERIOD_HOURS: Record<PackageKey, number> = { day: 24, week: 168, month: 720 };
/** Hours of the usage price a package period costs when the host has no price of its own (the seed's discount). */
const PERIOD_PRICE_HOURS: Record<PackageKey, number> = { day: 22, week: 140, month: 520 };
const KEYS = Object.keys(TIME_PACKAGE_KEYS) as PackageKey[];

interface Prices {
  usage: number;
  period: Partial<Record<PackageKey, number>>;
}
type Start = { kind: 'usage' } | { kind: 'package'; key: PackageKey; count: number };
type Action =
  | { kind: 'wait'; seconds: number }
  | { kind: 'powerOn'; nogpu: boolean }
  | { kind: 'powerOff' }
  | { kind: 'gpu'; count: number }
  | { kind: 'toUsage' }
  | { kind: 'toPackage'; key: PackageKey; count: number }
  | { kind: 'renew'; count: number }
  | { kind: 'release' };
interface Scenario {
  prices: Prices;
  gpuNum: number;
  start: Start;
  actions: Action[];
}

function perGpuPeriod(prices: Prices, key: PackageKey): number {
  return prices.period[key] ?? prices.usage * PERIOD_PRICE_HOURS[key];
}

function runCost(rateFenPerHour: number, seconds: number): number {
  if (seconds <= 0 || rateFenPerHour <= 0) return 0;
  return Math.max(1, Math.round((rateFenPerHour * seconds) / 3600));
}

interface PackageState {
  key: PackageKey;
  startedAt: number;
  expiresAt: number;
  /** Cash the package holds: what was paid for it less what removed GPUs got back. */
  cash: number;
  /** The GPU count from each moment on, the first at the start. */
  counts: { at: number; count: number }[];
}

class Model {
  /** Money that left the wallet (payments, settled runs) less money that came back (refunds). */
  cashOut = 0;
  /** What the segments cost, by the property's definition. */
  segments = 0;
  on = false;
  run: { start: number; rate: number } | null = null;
  pkg: PackageState | null = null;

  constructor(
    readonly prices: Prices,
    public gpuNum: number,
    public now: number,
  ) {}

  private closeRun(): void {
    if (!this.run) return;
    const cost = runCost(this.run.rate, (this.now - this.run.start) / 1000);
    this.cashOut += cost;
    this.segments += cost;
    this.run = null;
  }

  /** What an open run has cost up to now (settled by the metering pass the runner makes first). */
  openRunCost(): number {
    return this.run ? runCost(this.run.rate, (this.now - this.run.start) / 1000) : 0;
  }

  /** The usage price of every hour begun in the package, each at the most GPUs in force during it. */
  usedFen(pkg: PackageState): number {
    const hours = Math.ceil((this.now - pkg.startedAt) / HOUR_MS);
    let used = 0;
    for (let hour = 0; hour < hours; hour += 1) {
      const from = pkg.startedAt + hour * HOUR_MS;
      const to = from + HOUR_MS;
      let most = 0;
      // A count is in force from its moment until the next one's; one set for no time at all (two
      // changes at one moment) still counts in the hour of that moment.
      for (const [index, change] of pkg.counts.entries()) {
        const until = pkg.counts[index + 1]?.at ?? Number.POSITIVE_INFINITY;
        if (change.at < to && (until > from || change.at >= from)) most = Math.max(most, change.count);
      }
      used += this.prices.usage * most;
    }
    return used;
  }

  startPackage(key: PackageKey, count: number): number {
    this.closeRun();
    const price = perGpuPeriod(this.prices, key) * this.gpuNum * count;
    this.cashOut += price;
    this.pkg = { key, startedAt: this.now, expiresAt: this.now + PERIOD_HOURS[key] * count * HOUR_MS, cash: price, counts: [{ at: this.now, count: this.gpuNum }] };
    if (this.on) this.run = { start: this.now, rate: 0 };
    return price;
  }

  /** Ends the package: refunds its cash less the used price (never negative); a running instance is metered from now. */
  toUsage(): number {
    const pkg = this.pkg;
    if (!pkg) throw new Error('model: not a package');
    const used = this.usedFen(pkg);
    const refund = Math.max(0, pkg.cash - used);
    this.cashOut -= refund;
    this.segments += Math.min(pkg.cash, used);
    this.pkg = null;
    this.run = this.on ? { start: this.now, rate: this.prices.usage * this.gpuNum } : null;
    return refund;
  }

  renew(count: number): number {
    const pkg = this.pkg;
    if (!pkg) throw new Error('model: not a package');
    const price = perGpuPeriod(this.prices, pkg.key) * this.gpuNum * count;
    pkg.cash += price;
    pkg.expiresAt += PERIOD_HOURS[pkg.key] * count * HOUR_MS;
    this.cashOut += price;
    return price;
  }

  /** A GPU-count change while off: a package pays for added GPUs' remaining hours begun, refunds removed ones' whole remaining hours. */
  changeGpus(count: number): { payable: number; refund: number } {
    const before = this.gpuNum;
    this.gpuNum = count;
    const pkg = this.pkg;
    if (!pkg) return { payable: 0, refund: 0 };
    const remainingHours = Math.max(0, pkg.expiresAt - this.now) / HOUR_MS;
    const period = perGpuPeriod(this.prices, pkg.key);
    pkg.counts.push({ at: this.now, count });
    if (count > before) {
      const payable = Math.ceil((period * (count - before) * Math.ceil(remainingHours)) / PERIOD_HOURS[pkg.key]);
      pkg.cash += payable;
      this.cashOut += payable;
      return { payable, refund: 0 };
    }
    const refund = Math.min(pkg.cash, Math.floor((period * (before - count) * Math.floor(remainingHours)) / PERIOD_HOURS[pkg.key]));
    pkg.cash -= refund;
    this.cashOut -= refund;
    return { payable: 0, refund };
  }

  powerOn(nogpu: boolean): void {
    this.on = true;
    this.run = { start: this.now, rate: this.pkg ? 0 : nogpu ? NO_GPU_PRICE : this.prices.usage * this.gpuNum };
  }

  powerOff(): void {
    this.closeRun();
    this.on = false;
  }

  /** Time passes; the expiry job then ends a package whose time is up (switched to usage, powered off). */
  wait(seconds: number): void {
    this.now += seconds * 1000;
    if (this.pkg && this.pkg.expiresAt <= this.now) {
      this.toUsage();
      if (this.on) this.powerOff();
    }
  }
}

// ---- the generators -------------------------------------------------------------------------------

const packageKey = fc.constantFrom(...KEYS);
const countOf = (key: PackageKey) => fc.constantFrom(...TIME_PACKAGE_COUNTS[key]);
const packageChoice = packageKey.chain((key) => countOf(key).map((count) => ({ key, count })));
const waitSeconds = fc.oneof(
  fc.integer({ min: 1, max: 59 }),
  fc.integer({ min: 60, max: 3 * 3600 }),
  fc.integer({ min: 3 * 3600, max: 40 * 3600 }),
  fc.constantFrom(3600, 7200, 24 * 3600),
);
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: waitSeconds.map((seconds) => ({ kind: 'wait' as const, seconds })), weight: 4 },
  { arbitrary: fc.boolean().map((nogpu) => ({ kind: 'powerOn' as const, nogpu })), weight: 2 },
  { arbitrary: fc.constant({ kind: 'powerOff' as const }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 8 }).map((count) => ({ kind: 'gpu' as const, count })), weight: 3 },
  { arbitrary: fc.constant({ kind: 'toUsage' as const }), weight: 2 },
  { arbitrary: packageChoice.map((choice) => ({ kind: 'toPackage' as const, ...choice })), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 12 }).map((index) => ({ kind: 'renew' as const, count: index })), weight: 1 },
  { arbitrary: fc.constant({ kind: 'release' as const }), weight: 1 },
);
const optionalPrice = fc.option(fc.integer({ min: 1, max: 400_000 }), { nil: undefined });
const scenario: fc.Arbitrary<Scenario> = fc.record({
  prices: fc.record({
    usage: fc.integer({ min: 1, max: 2_000 }),
    period: fc.record({ day: optionalPrice, week: optionalPrice, month: optionalPrice }, { requiredKeys: [] }),
  }),
  gpuNum: fc.integer({ min: 1, max: 8 }),
  start: fc.oneof(fc.constant<Start>({ kind: 'usage' }), packageChoice.map((choice): Start => ({ kind: 'package', ...choice }))),
  actions: fc.array(action, { minLength: 1, maxLength: 8 }),
});

// ---- the runner: the same sequence against the real services ---------------------------------------

let t: TestApp;
let rental: RentalService;
let packages: PackageService;
let gpuCounts: GpuCountService;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      SIM_CREATE_SECONDS: '0',
      SIM_START_SECONDS: '0',
      SIM_STOP_SECONDS: '0',
      SIM_DESTROY_SECONDS: '0',
      NO_GPU_PRICE_FEN: String(NO_GPU_PRICE),
    },
  });
  t.clock.freeze();
  rental = new RentalService(t.deps);
  packages = new PackageService(t.deps);
  gpuCounts = new GpuCountService(t.deps);
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.deps.database.db;

/** The machines do what was asked (the sim fleet takes 0 s here, so one pass finishes each operation). */
async function settleMachines(): Promise<void> {
  await new Reconciler(t.deps).tick();
}

class Runner {
  constructor(
    private readonly principal: Principal,
    private readonly walletId: number,
    readonly instanceId: string,
    readonly model: Model,
  ) {}

  async row() {
    const [row] = await db().select().from(instances).where(eq(instances.instanceId, this.instanceId));
    if (!row) throw new Error('instance row missing');
    return row;
  }

  /**
   * The balance now against the model's cash flows. Every wait settles open runs up to its end and no
   * other step moves the clock, so what an open run has cost so far is settled already.
   */
  async expectBalance(step: string): Promise<void> {
    const [wallet] = await db().select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, this.walletId));
    expect({ step, balance: wallet?.balance }).toEqual({ step, balance: START_BALANCE - this.model.cashOut - this.model.openRunCost() });
  }

  private inTx<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return db().transaction(work);
  }

  async powerOff(): Promise<void> {
    if (!this.model.on) return;
    await rental.powerOff(this.principal, { instanceId: this.instanceId });
    await settleMachines();
    this.model.powerOff();
  }

  async powerOn(nogpu: boolean): Promise<void> {
    if (this.model.on) return;
    const mode = nogpu && !this.model.pkg ? 'nogpu' : 'gpu';
    await rental.powerOn(this.principal, { instanceId: this.instanceId, mode });
    await settleMachines();
    this.model.powerOn(mode === 'nogpu');
  }

  async toUsage(): Promise<void> {
    if (!this.model.pkg) return;
    const row = await this.row();
    const preview = await packages.refundPreview(this.principal, row.uid);
    const applied = await this.inTx((tx) => packages.updateChargingRule(tx, this.principal, { instanceId: this.instanceId, chargingRuleId: 1, rentAmount: 0 }));
    const expected = this.model.toUsage();
    expect({ preview: preview.refund, applied: applied.refund }).toEqual({ preview: expected, applied: expected });
    await settleMachines();
  }

  async act(action: Action): Promise<void> {
    const model = this.model;
    switch (action.kind) {
      case 'wait':
        t.clock.advance(action.seconds);
        await meterOpenRuns(db(), t.deps.now());
        await packages.expirePackages();
        await settleMachines();
        model.wait(action.seconds);
        return;
      case 'powerOn':
        return this.powerOn(action.nogpu);
      case 'powerOff':
        return this.powerOff();
      case 'gpu': {
        const count = action.count === model.gpuNum ? (action.count % 8) + 1 : action.count;
        await this.powerOff();
        const quote = await gpuCounts.prepay(this.principal, { instanceId: this.instanceId, gpuNum: count });
        const applied = await this.inTx((tx) => gpuCounts.change(tx, this.principal, { instanceId: this.instanceId, gpuNum: count }));
        const expected = model.changeGpus(count);
        expect({ quote: [quote.payable, quote.refund], applied: [applied.payable, applied.refund] }).toEqual({
          quote: [expected.payable, expected.refund],
          applied: [expected.payable, expected.refund],
        });
        return;
      }
      case 'toUsage':
        return this.toUsage();
      case 'toPackage': {
        if (model.pkg) return;
        const row = await this.row();
        if (row.gpuMode === 'nogpu' && model.on) await this.powerOff();
        const rule = TIME_PACKAGE_KEYS[action.key];
        const quote = await rental.prepay(this.principal, { hostId: row.hostId, gpuNum: model.gpuNum, chargingRuleId: rule, rentAmount: action.count });
        const applied = await this.inTx((tx) => packages.updateChargingRule(tx, this.principal, { instanceId: this.instanceId, chargingRuleId: rule, rentAmount: action.count }));
        const expected = model.startPackage(action.key, action.count);
        expect({ quote: quote.payable, applied: applied.payable }).toEqual({ quote: expected, applied: expected });
        await settleMachines();
        return;
      }
      case 'renew': {
        const pkg = model.pkg;
        if (!pkg) return;
        const counts = TIME_PACKAGE_COUNTS[pkg.key];
        const count = counts[action.count % counts.length] ?? 1;
        const quote = await packages.renewPrepay(this.principal, { instanceIds: [this.instanceId], rentAmount: count });
        await this.inTx((tx) => packages.renew(tx, this.principal, { instanceIds: [this.instanceId], rentAmount: count }));
        expect(quote.payable).toBe(model.renew(count));
        return;
      }
      case 'release':
        await this.toUsage();
        await this.powerOff();
        await rental.release(this.principal, { instanceId: this.instanceId });
        await settleMachines();
        expect((await this.row()).releasedAt).not.toBeNull();
        return;
    }
  }
}

async function play(input: Scenario): Promise<void> {
  const account = await insertMainAccount(t, { balanceFen: START_BALANCE });
  const hostId = await insertHost(t, 'bj-a-4090-01', {
    gpuTotal: 8,
    usagePriceFen: input.prices.usage,
    dayPriceFen: input.prices.period.day ?? null,
    weekPriceFen: input.prices.period.week ?? null,
    monthPriceFen: input.prices.period.month ?? null,
  });
  const model = new Model(input.prices, input.gpuNum, t.deps.now().getTime());
  const chargingRuleId = input.start.kind === 'usage' ? 1 : TIME_PACKAGE_KEYS[input.start.key];
  const rentAmount = input.start.kind === 'usage' ? undefined : input.start.count;
  const quote = await rental.prepay(account.principal, { hostId, gpuNum: input.gpuNum, chargingRuleId, rentAmount });
  const created = await db().transaction((tx) => rental.create(tx, account.principal, { hostId, gpuNum: input.gpuNum, imageId: IMAGE, chargingRuleId, rentAmount }));
  await settleMachines();
  model.on = true;
  if (input.start.kind === 'package') expect(quote.payable).toBe(model.startPackage(input.start.key, input.start.count));
  else model.run = { start: model.now, rate: input.prices.usage * input.gpuNum };

  const runner = new Runner(account.principal, account.id, created.instanceId, model);
  await runner.expectBalance('create');
  let released = false;
  for (const [index, step] of input.actions.entries()) {
    if (released) break;
    await runner.act(step);
    released = step.kind === 'release';
    await runner.expectBalance(`${index}:${step.kind}`);
  }
  if (!released) {
    // Settles what is open: the package's refund and the run's last charge.
    await runner.act({ kind: 'toUsage' });
    await runner.act({ kind: 'powerOff' });
  }
  await runner.expectBalance('end');
  const [left] = await db().select({ operation: instances.operation }).from(instances).where(eq(instances.instanceId, created.instanceId));
  expect(left?.operation ?? null).toBeNull();
  // The property: what the wallet paid less what came back is what the segments cost.
  const [wallet] = await db().select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, account.id));
  expect(START_BALANCE - (wallet?.balance ?? 0)).toBe(model.segments);
}

describe('money property', () => {
  it(`paid − refunded equals each segment's rate × its time, and every quote equals what is applied (${RUNS} random sequences)`, { timeout: 3_600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        await play(input);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), verbose: 1, endOnFailure: false },
    );
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);
  });
});
