import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@slg/shared';
import type { ModelView } from '@slg/shared/views/models';
import type { AppDeps } from '../../deps.js';
import { rowsOf, type Transaction } from '../../db/client.js';
import { modelAllowances, modelRateWindows, models, modelUsageOrders, modelUsages, wallets } from '../../db/schema/index.js';
import { levelOf, type Principal } from '../../core/principal.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { OrderService } from '../billing/orders.js';
import { payingWalletOf } from '../billing/ledger.js';
import { openRootPassword, sealRootPassword } from '../rental/password.js';
import { AppError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { EngineError, type ChatEngine, type ChatMessage, type EngineModel, type EngineResult } from './engines/engine.js';
import { LocalEngine } from './engines/local.js';
import { OpenAiEngine } from './engines/openai.js';
import { writeTinyModel } from './tiny-gguf.js';

export type ModelRow = typeof models.$inferSelect;

/** The generated test model (tiny-gguf.ts): registered at start, labelled 测试模型. */
export const TEST_MODEL_ID = 'slg-tiny-test';
export const TEST_MODEL_FILE = `${TEST_MODEL_ID}.gguf`;

/** How long a process keeps a catalogue entry it looked up for a call. */
const FIND_CACHE_MS = 5_000;

/** What a call may generate when it does not say (and what the balance must cover up front). */
export const DEFAULT_MAX_TOKENS = 512;

const MILLION = 1_000_000;

/** Fen for these tokens at these prices (fen per million tokens), rounded up to the fen. */
export function costFen(inputTokens: number, outputTokens: number, model: Pick<ModelRow, 'inputPriceFen' | 'outputPriceFen'>): number {
  return Math.ceil((inputTokens * model.inputPriceFen + outputTokens * model.outputPriceFen) / MILLION);
}

/** A refusal of the OpenAI-compatible API, in OpenAI's error shape (routes.ts sends it). */
export class ModelApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A catalogue entry as the operator gives it (`upstreamKey` in clear; stored sealed, never returned). */
export interface ModelInput {
  id: string;
  name: string;
  provider: string;
  type: 'text' | 'visual';
  description?: string | undefined;
  tags?: string[] | undefined;
  contextLength: number;
  paramSize?: string | undefined;
  license?: string | undefined;
  inputPriceFen: number;
  outputPriceFen: number;
  engine: 'local' | 'openai';
  engineModel: string;
  upstreamUrl?: string | null | undefined;
  upstreamKey?: string | null | undefined;
  isTest?: boolean | undefined;
  enabled?: boolean | undefined;
  sortOrder?: number | undefined;
}

export interface ChatInput {
  model: string;
  messages: ChatMessage[];
  maxTokens?: number | undefined;
  temperature?: number | undefined;
  topP?: number | undefined;
  stop?: string[] | undefined;
  stream: boolean;
}

export interface ChatCaller {
  principal: Principal;
  apiTokenId: number | null;
}

export interface ChatOutcome extends EngineResult {
  model: ModelRow;
  chargedFen: number;
  freeTokens: number;
}

export function modelViewOf(row: ModelRow): ModelView {
  return {
    id: row.id,
    name: row.name,
    provider: row.provider,
    type: row.type,
    description: row.description,
    tags: row.tags,
    contextLength: row.contextLength,
    paramSize: row.paramSize,
    license: row.license,
    inputPriceFen: row.inputPriceFen,
    outputPriceFen: row.outputPriceFen,
    engine: row.engine,
    isTest: row.isTest,
  };
}

/**
 * 模型: the catalogue, and calls of the OpenAI-compatible API (docs/api-models.md) — admitted by the
 * per-minute limits, checked against the balance, run by the model's engine, then settled from the
 * engine's token counts: free tokens first, the rest through the ledger on the wallet's
 * MODEL_EXPERIENCE order, and a usage row — in one transaction.
 */
export class ModelService {
  private readonly orders: OrderService;
  private readonly found = new Map<string, { row: ModelRow | undefined; until: number }>();

  constructor(
    private readonly deps: AppDeps,
    private readonly engines: Record<ModelRow['engine'], ChatEngine>,
  ) {
    this.orders = new OrderService(deps.now);
  }

  private get db() {
    return this.deps.database.db;
  }

  // ── Catalogue ─────────────────────────────────────────────────────────────

  async list(query: PageQuery & { type?: 'text' | 'visual' | undefined; name?: string | undefined }): Promise<Page<ModelView>> {
    const pattern = query.name ? `%${query.name.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : undefined;
    const where = and(
      eq(models.enabled, true),
      query.type ? eq(models.type, query.type) : undefined,
      pattern ? or(ilike(models.name, pattern), ilike(models.id, pattern), ilike(models.provider, pattern)) : undefined,
    ) as SQL;
    return paged(
      query,
      (limit, offset) => this.db.select().from(models).where(where).orderBy(asc(models.type), asc(models.sortOrder), asc(models.id)).limit(limit).offset(offset),
      () => this.db.$count(models, where),
      (rows) => rows.map(modelViewOf),
    );
  }

  async enabled(): Promise<ModelRow[]> {
    return this.db.select().from(models).where(eq(models.enabled, true)).orderBy(asc(models.type), asc(models.sortOrder), asc(models.id));
  }

  /**
   * An enabled model by id, for calls: kept in memory for FIND_CACHE_MS (a call per request to the
   * catalogue is a round trip the OpenAI API's overhead does not need); an operator's change reaches
   * this process at once and other server processes within that time.
   */
  async find(id: string): Promise<ModelRow | undefined> {
    const now = Date.now();
    const cached = this.found.get(id);
    if (cached && cached.until > now) return cached.row;
    const [row] = await this.db.select().from(models).where(and(eq(models.id, id), eq(models.enabled, true)));
    this.found.set(id, { row, until: now + FIND_CACHE_MS });
    return row;
  }

  // ── Operator ──────────────────────────────────────────────────────────────

  async all(): Promise<ModelRow[]> {
    return this.db.select().from(models).orderBy(asc(models.type), asc(models.sortOrder), asc(models.id));
  }

  /** Adds a model to the catalogue (409 when the id exists); audit-logged. */
  async create(actorId: number, input: ModelInput): Promise<ModelRow> {
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(models)
        .values({ ...this.columnsOf(input), id: input.id, createdAt: now, updatedAt: now })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new AppError('NAME_EXISTS', `模型 ID ${input.id} 已存在`);
      this.found.delete(input.id);
      await recordAudit(tx, { actorId, action: 'model.create', targetType: 'model', targetId: input.id, detail: { engine: input.engine } }, now);
      return row;
    });
  }

  /** Changes a model (prices apply to calls from now on); audit-logged. */
  async update(actorId: number, id: string, input: Partial<ModelInput>): Promise<ModelRow> {
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(models).where(eq(models.id, id)).for('update');
      if (!current) throw new AppError('NOT_FOUND', '模型不存在');
      const merged = { ...current, ...input, upstreamKey: input.upstreamKey };
      if (merged.engine === 'openai' && !merged.upstreamUrl) throw new AppError('VALIDATION', 'openai 引擎的模型须给出上游服务地址 upstreamUrl');
      if (merged.engine === 'local' && !/^[\w.-]+\.gguf$/.test(merged.engineModel)) throw new AppError('VALIDATION', 'local 引擎的 engineModel 须是模型目录中的 .gguf 文件名');
      const [row] = await tx
        .update(models)
        .set({ ...this.columnsOf(merged as ModelInput, input.upstreamKey === undefined ? current.upstreamKeyEnc : undefined), updatedAt: now })
        .where(eq(models.id, id))
        .returning();
      this.found.delete(id);
      await recordAudit(tx, { actorId, action: 'model.update', targetType: 'model', targetId: id, detail: { fields: Object.keys(input) } }, now);
      if (!row) throw new AppError('NOT_FOUND', '模型不存在');
      return row;
    });
  }

  private columnsOf(input: ModelInput, keepSealedKey?: string | null) {
    return {
      name: input.name,
      provider: input.provider,
      type: input.type,
      description: input.description ?? '',
      tags: input.tags ?? [],
      contextLength: input.contextLength,
      paramSize: input.paramSize ?? '',
      license: input.license ?? '',
      inputPriceFen: input.inputPriceFen,
      outputPriceFen: input.outputPriceFen,
      engine: input.engine,
      engineModel: input.engineModel,
      upstreamUrl: input.upstreamUrl ?? null,
      upstreamKeyEnc: keepSealedKey !== undefined ? keepSealedKey : input.upstreamKey ? sealRootPassword(this.deps.config.jwtSecret, input.upstreamKey) : null,
      isTest: input.isTest ?? false,
      enabled: input.enabled ?? true,
      sortOrder: input.sortOrder ?? 100,
    };
  }

  // ── Calls ─────────────────────────────────────────────────────────────────

  private engineModel(row: ModelRow): EngineModel {
    return {
      id: row.id,
      engine: row.engine,
      engineModel: row.engineModel,
      contextLength: row.contextLength,
      upstreamUrl: row.upstreamUrl,
      upstreamKey: row.upstreamKeyEnc ? openRootPassword(this.deps.config.jwtSecret, row.upstreamKeyEnc) : null,
    };
  }

  /**
   * Admits one request against the per-minute limits of the account and of the API token: one upsert
   * per key that counts the request only while both counts are under their limits (no read-then-write).
   */
  private async admit(caller: ChatCaller): Promise<void> {
    const now = this.deps.now();
    const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const { requestsPerMinute, tokensPerMinute } = this.deps.config.models;
    const keys = [`account:${caller.principal.ownerId}`, ...(caller.apiTokenId !== null ? [`token:${caller.apiTokenId}`] : [])];
    for (const key of keys) {
      const [admitted] = await this.db
        .insert(modelRateWindows)
        .values({ key, windowStart, requests: 1, tokens: 0 })
        .onConflictDoUpdate({
          target: [modelRateWindows.key, modelRateWindows.windowStart],
          set: { requests: sql`${modelRateWindows.requests} + 1` },
          setWhere: sql`${modelRateWindows.requests} < ${requestsPerMinute} and ${modelRateWindows.tokens} < ${tokensPerMinute}`,
        })
        .returning({ requests: modelRateWindows.requests });
      if (!admitted) {
        const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + 60_000 - now.getTime()) / 1000));
        const what = key.startsWith('token') ? '该 API 令牌' : '该账号';
        throw new ModelApiError(429, `${what}的调用超过每分钟 ${requestsPerMinute} 次或 ${tokensPerMinute} 个 token 的限制，请 ${retryAfter} 秒后重试`, 'rate_limit_exceeded', 'rate_limit_exceeded', retryAfter);
      }
    }
  }

  private async countTokens(caller: ChatCaller, tokens: number): Promise<void> {
    const windowStart = new Date(Math.floor(this.deps.now().getTime() / 60_000) * 60_000);
    const keys = [`account:${caller.principal.ownerId}`, ...(caller.apiTokenId !== null ? [`token:${caller.apiTokenId}`] : [])];
    for (const key of keys) {
      await this.db
        .insert(modelRateWindows)
        .values({ key, windowStart, requests: 0, tokens })
        .onConflictDoUpdate({ target: [modelRateWindows.key, modelRateWindows.windowStart], set: { tokens: sql`${modelRateWindows.tokens} + ${tokens}` } });
    }
  }

  /**
   * Refuses a call its wallet cannot pay for in the worst case (max_tokens of output), after the free
   * tokens left (an account's first call has them all). One query for the balance and the allowance.
   */
  private async assertAffordable(caller: ChatCaller, model: ModelRow, maxTokens: number): Promise<number> {
    const walletId = await payingWalletOf(this.db, caller.principal);
    const [row] = await this.db
      .select({ balance: wallets.balanceFen, granted: modelAllowances.grantedTokens, used: modelAllowances.usedTokens })
      .from(wallets)
      .leftJoin(modelAllowances, eq(modelAllowances.ownerId, caller.principal.ownerId))
      .where(eq(wallets.accountId, walletId));
    const free = row?.granted != null ? row.granted - (row.used ?? 0) : this.deps.config.models.freeTokens;
    const worst = costFen(0, Math.max(0, maxTokens - free), model);
    if (worst > 0 && (row?.balance ?? 0) < worst) {
      throw new ModelApiError(402, `余额不足：本次调用最多需 ¥${(worst / 100).toFixed(2)}（max_tokens ${maxTokens}），请充值后再试`, 'insufficient_quota', 'insufficient_balance');
    }
    return walletId;
  }

  /**
   * Runs a chat completion for the caller; `onText` gets each piece of the answer as the engine makes
   * it. Whatever the engine generated is settled — also when `signal` aborts (the client went away)
   * or the engine fails halfway.
   */
  async chat(caller: ChatCaller, input: ChatInput, signal: AbortSignal, onText: (text: string) => void): Promise<ChatOutcome> {
    if (levelOf(caller.principal, 'MODEL_DEPLOY') === 'NONE') throw new ModelApiError(403, '子账号没有模型的使用权限', 'permission_denied', 'permission_denied');
    const model = await this.find(input.model);
    if (!model) throw new ModelApiError(404, `模型 ${input.model} 不存在或已下线`, 'invalid_request_error', 'model_not_found');
    const maxTokens = Math.min(input.maxTokens ?? DEFAULT_MAX_TOKENS, model.contextLength);
    // Independent checks, on two connections: the balance and the per-minute limits.
    const [walletId] = await Promise.all([this.assertAffordable(caller, model, maxTokens), this.admit(caller)]);
    const started = Date.now();
    let result: EngineResult;
    try {
      result = await this.engines[model.engine].run(
        { model: this.engineModel(model), messages: input.messages, maxTokens, temperature: input.temperature, topP: input.topP, stop: input.stop },
        signal,
        onText,
      );
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      if (error.partial && error.partial.inputTokens + error.partial.outputTokens > 0) {
        await this.settle(caller, walletId, model, error.partial, { outcome: 'failed', stream: input.stream, durationMs: Date.now() - started });
      }
      const status = error.kind === 'busy' ? 429 : error.kind === 'invalid' ? 400 : 503;
      throw new ModelApiError(status, error.message, error.kind === 'invalid' ? 'invalid_request_error' : 'server_error', error.kind === 'busy' ? 'engine_busy' : null, error.kind === 'busy' ? 5 : undefined);
    }
    const settled = await this.settle(caller, walletId, model, result, { outcome: result.finishReason === 'aborted' ? 'aborted' : 'completed', stream: input.stream, durationMs: Date.now() - started });
    return { ...result, model, ...settled };
  }

  /** Free tokens first, then the ledger; the usage row; all in one transaction. */
  private async settle(
    caller: ChatCaller,
    walletId: number,
    model: ModelRow,
    used: Pick<EngineResult, 'inputTokens' | 'outputTokens'>,
    call: { outcome: string; stream: boolean; durationMs: number },
  ): Promise<{ chargedFen: number; freeTokens: number }> {
    const total = used.inputTokens + used.outputTokens;
    const settled = await this.db.transaction(async (tx) => {
      const ownerId = caller.principal.ownerId;
      const freeTokens = await this.takeFreeTokens(tx, ownerId, total);
      // The free tokens cover the input first, then the output.
      const freeInput = Math.min(freeTokens, used.inputTokens);
      const chargedFen = costFen(used.inputTokens - freeInput, used.outputTokens - (freeTokens - freeInput), model);
      if (chargedFen > 0) {
        const orderId = await this.usageOrder(tx, caller, walletId);
        await this.orders.postMetered(tx, {
          walletId,
          amountFen: chargedFen,
          orderId,
          description: `模型体验 ${model.name}：输入 ${used.inputTokens} + 输出 ${used.outputTokens} token${freeTokens > 0 ? `（免费额度抵扣 ${freeTokens}）` : ''}`,
        });
      }
      await tx.insert(modelUsages).values({
        ownerId,
        creatorId: caller.principal.userId,
        walletId,
        apiTokenId: caller.apiTokenId,
        modelId: model.id,
        inputTokens: used.inputTokens,
        outputTokens: used.outputTokens,
        freeTokens: Math.max(0, freeTokens),
        chargedFen,
        outcome: call.outcome,
        stream: call.stream,
        durationMs: call.durationMs,
        createdAt: this.deps.now(),
      });
      return { chargedFen, freeTokens: Math.max(0, freeTokens) };
    });
    // Counted for the per-minute limit after the answer: the next request is what it limits.
    this.countTokens(caller, total).catch((error: unknown) => console.error('模型 token 计数失败', error));
    return settled;
  }

  /**
   * Takes up to `total` of the account's free tokens; returns how many. One statement on the row (the
   * row lock of its UPDATE orders parallel calls), the row made on the account's first call.
   */
  private async takeFreeTokens(tx: Transaction, ownerId: number, total: number): Promise<number> {
    const take = async (): Promise<number | null> => {
      const rows = rowsOf<{ taken: number | string }>(
        await tx.execute(sql`
          with prior as (select ${modelAllowances.grantedTokens} - ${modelAllowances.usedTokens} as left_tokens from ${modelAllowances} where ${modelAllowances.ownerId} = ${ownerId} for update)
          update ${modelAllowances} set used_tokens = used_tokens + least(${total}::bigint, (select left_tokens from prior))
          where owner_id = ${ownerId}
          returning least(${total}::bigint, (select left_tokens from prior)) as taken`),
      );
      return rows[0] ? Number(rows[0].taken) : null;
    };
    const taken = await take();
    if (taken !== null) return taken;
    await tx.insert(modelAllowances).values({ ownerId, grantedTokens: this.deps.config.models.freeTokens }).onConflictDoNothing();
    return (await take()) ?? 0;
  }

  /** The wallet's MODEL_EXPERIENCE usage order (opened on its first charge; the wallet row lock keeps it to one). */
  private async usageOrder(tx: Transaction, caller: ChatCaller, walletId: number): Promise<number> {
    await tx.select({ id: wallets.accountId }).from(wallets).where(eq(wallets.accountId, walletId)).for('update');
    const [known] = await tx.select({ orderId: modelUsageOrders.orderId }).from(modelUsageOrders).where(eq(modelUsageOrders.walletId, walletId));
    if (known) return known.orderId;
    const order = await this.orders.open(tx, {
      ownerId: caller.principal.ownerId,
      creatorId: caller.principal.userId,
      walletId,
      type: 'MODEL_EXPERIENCE',
      billingType: 'USAGE',
      title: '模型体验（按 token 计费）',
      items: [{ name: '模型 API 调用', spec: '按输入、输出 token 计费', quantity: 1, unit: '百万 token', unitPriceFen: 0, amountFen: 0 }],
      resourceType: 'MODEL',
      resourceId: String(walletId),
    });
    await tx.insert(modelUsageOrders).values({ walletId, orderId: order.id });
    return order.id;
  }
}

/** The engines of a running platform. */
export function createEngines(deps: Pick<AppDeps, 'config'>): Record<ModelRow['engine'], ChatEngine> {
  const { dir, localConcurrency, localQueue } = deps.config.models;
  return { local: new LocalEngine({ dir, concurrency: localConcurrency, queueLimit: localQueue }), openai: new OpenAiEngine() };
}

/** Writes the test model into MODELS_DIR when it is missing and registers it once (an operator's later edit stays). */
export async function ensureTestModel(deps: Pick<AppDeps, 'config' | 'database' | 'now'>): Promise<void> {
  const path = join(deps.config.models.dir, TEST_MODEL_FILE);
  if (!existsSync(path)) await writeTinyModel(path);
  const now = deps.now();
  await deps.database.db
    .insert(models)
    .values({
      id: TEST_MODEL_ID,
      name: 'SLG Tiny（测试模型）',
      provider: '算力港',
      type: 'text',
      description: '平台生成的微型 llama 结构测试模型（约 0.4 MB，随机权重）：分词、推理、流式输出和 token 计费都是真实的，回答内容没有意义。用于体验和测试 API；正式模型由运营在模型目录或上游服务中配置。',
      tags: ['测试', 'GGUF', 'llama.cpp'],
      contextLength: 2048,
      paramSize: '0.1M',
      license: 'CC0-1.0',
      inputPriceFen: 100,
      outputPriceFen: 200,
      engine: 'local',
      engineModel: TEST_MODEL_FILE,
      isTest: true,
      sortOrder: 1000,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}
