/**
 * 模型 through the official `openai` npm package (issue 23): the catalogue, the OpenAI-compatible API on
 * the local engine (llama.cpp running the generated test model), streaming with usage, billing exact to
 * the fen through the ledger with the free tokens first, a broken-off stream billed for what was made,
 * 401, 402, 404, 400 and the per-minute limits. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@slg/shared';
import type { ModelView } from '@slg/shared/views/models';
import { call, createTestApp, eventually, listenLocally, loginToken, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { ledgerEntries, modelAllowances, models, modelUsages, orders, wallets } from '../../db/schema/index.js';
import { walletsOutOfBalance } from '../billing/ledger.js';
import { makeOperator, userIdOf } from '../invoices/test-factories.js';
import { costFen, ensureTestModel, TEST_MODEL_ID } from './service.js';

const FREE_TOKENS = 10;
let t: TestApp;
let base: string;
let modelsDir: string;

beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), 'slg-models-'));
  t = await createTestApp({ env: { MODELS_DIR: modelsDir, MODEL_FREE_TOKENS: String(FREE_TOKENS), MODEL_REQUESTS_PER_MINUTE: '1000' } });
  await ensureTestModel(t.deps);
  base = await listenLocally(t);
});
afterAll(async () => {
  await t.close();
  await rm(modelsDir, { recursive: true, force: true });
});

const db = () => t.deps.database.db;

interface Account {
  token: string;
  userId: number;
  apiKey: string;
}

async function account(rechargeFen = 0): Promise<Account> {
  const { telephone, jwtToken } = await registerUser(t);
  if (rechargeFen > 0) await rechargeThroughSandbox(t, jwtToken, rechargeFen);
  const created = await call<{ token: string }>(t.app, { method: 'POST', url: '/api/v1/settings/token', token: jwtToken, payload: { name: '模型测试' } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { token: jwtToken, userId: await userIdOf(db(), telephone), apiKey: created.body.result.token };
}

const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 });
const balanceOf = async (userId: number) => (await db().select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, userId)))[0]?.balance ?? 0;
const usagesOf = (userId: number) => db().select().from(modelUsages).where(eq(modelUsages.ownerId, userId)).orderBy(desc(modelUsages.id));
const testModel = async () => (await db().select().from(models).where(eq(models.id, TEST_MODEL_ID)))[0]!;

describe('the catalogue', () => {
  it('lists the test model publicly, labelled as one, and to the OpenAI SDK', async () => {
    const listed = await call<Page<ModelView>>(t.app, { method: 'GET', url: '/api/v1/models?type=text' });
    expect(listed.status).toBe(200);
    expect(listed.body.result.list.find((model) => model.id === TEST_MODEL_ID)).toMatchObject({ isTest: true, engine: 'local', type: 'text', inputPriceFen: 100, outputPriceFen: 200 });
    expect((await call<Page<ModelView>>(t.app, { method: 'GET', url: '/api/v1/models?type=visual' })).body.result.list.some((model) => model.id === TEST_MODEL_ID)).toBe(false);

    const { apiKey } = await account();
    const ids = [];
    for await (const model of client(apiKey).models.list()) ids.push(model.id);
    expect(ids).toContain(TEST_MODEL_ID);
  });
});

describe('POST /v1/chat/completions on the local engine', () => {
  it('streams an answer with usage, and the wallet pays exactly usage × prices after the free tokens', async () => {
    const caller = await account(10_000);
    const before = await balanceOf(caller.userId);
    const stream = await client(caller.apiKey).chat.completions.create({
      model: TEST_MODEL_ID,
      messages: [
        { role: 'system', content: '你是算力港的测试助手' },
        { role: 'user', content: '你好，介绍一下算力港' },
      ],
      max_tokens: 24,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    let pieces = 0;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) {
        text += choice.delta.content;
        pieces += 1;
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces).toBeGreaterThan(1);
    expect(text.length).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeLessThanOrEqual(24);
    expect(usage?.prompt_tokens).toBeGreaterThan(FREE_TOKENS);
    expect(finish).toMatch(/^(stop|length)$/);

    const model = await testModel();
    const expected = costFen((usage?.prompt_tokens ?? 0) - FREE_TOKENS, usage?.completion_tokens ?? 0, model);
    expect(expected).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(caller.userId)).toBe(before - expected);
    const [row] = await usagesOf(caller.userId);
    expect(row).toMatchObject({ inputTokens: usage?.prompt_tokens, outputTokens: usage?.completion_tokens, freeTokens: FREE_TOKENS, chargedFen: expected, outcome: 'completed', stream: true });
    // The cost rides along in the usage (the console's 模型对话 shows it).
    expect(usage).toMatchObject({ cost_fen: expected, free_tokens: FREE_TOKENS });
    expect((await db().select().from(modelAllowances).where(eq(modelAllowances.ownerId, caller.userId)))[0]).toMatchObject({ grantedTokens: FREE_TOKENS, usedTokens: FREE_TOKENS });
    // Through the ledger, on the wallet's MODEL_EXPERIENCE usage order.
    const [order] = await db().select().from(orders).where(and(eq(orders.walletId, caller.userId), eq(orders.type, 'MODEL_EXPERIENCE')));
    expect(order).toMatchObject({ status: 'PLACED', billingType: 'USAGE', meteredFen: expected });
    expect((await db().select().from(ledgerEntries).where(eq(ledgerEntries.walletId, caller.userId))).map((entry) => entry.amountFen)).toContain(-expected);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('answers without streaming, with the same usage fields, and on a console session too', async () => {
    const caller = await account(10_000);
    const completion = await client(caller.token).chat.completions.create({ model: TEST_MODEL_ID, messages: [{ role: 'user', content: 'hello' }], max_tokens: 8 });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.role).toBe('assistant');
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
    const [row] = await usagesOf(caller.userId);
    expect(row).toMatchObject({ outputTokens: completion.usage?.completion_tokens, stream: false, apiTokenId: null });
  });

  it('bills a stream the client breaks off for what was generated', async () => {
    const caller = await account(10_000);
    const controller = new AbortController();
    const stream = await client(caller.apiKey).chat.completions.create(
      { model: TEST_MODEL_ID, messages: [{ role: 'user', content: '写一篇很长的文章' }], max_tokens: 400, stream: true },
      { signal: controller.signal },
    );
    let received = 0;
    try {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) received += 1;
        if (received >= 3) {
          controller.abort();
          break;
        }
      }
    } catch (error) {
      // The SDK may report the abort as an error: it is ours.
      if (!(error instanceof OpenAI.APIUserAbortError)) throw error;
    }
    expect(received).toBe(3);
    await eventually(async () => {
      const [row] = await usagesOf(caller.userId);
      expect(row?.outcome).toBe('aborted');
      expect(row?.outputTokens).toBeGreaterThanOrEqual(3);
      expect(row?.outputTokens).toBeLessThan(400);
    });
    const [row] = await usagesOf(caller.userId);
    const model = await testModel();
    expect(row?.chargedFen).toBe(costFen((row?.inputTokens ?? 0) - FREE_TOKENS, row?.outputTokens ?? 0, model));
  });

  it('refuses a wrong token (401), an empty wallet (402), an unknown model (404) and bad input (400) in OpenAI’s shape, in Chinese', async () => {
    const wrong = await client('slg_' + 'x'.repeat(43))
      .chat.completions.create({ model: TEST_MODEL_ID, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((wrong as InstanceType<typeof OpenAI.AuthenticationError>).message).toContain('API 令牌无效');

    const poor = await account();
    // The free tokens cover 10 tokens; a call that may cost more than an empty wallet has is refused.
    const broke = await client(poor.apiKey)
      .chat.completions.create({ model: TEST_MODEL_ID, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5000 })
      .catch((error: unknown) => error);
    expect(broke).toBeInstanceOf(OpenAI.APIError);
    expect((broke as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((broke as InstanceType<typeof OpenAI.APIError>).message).toContain('余额不足');
    expect(await usagesOf(poor.userId)).toEqual([]);

    const missing = await client(poor.apiKey)
      .chat.completions.create({ model: 'gpt-nothing', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);

    const raw = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${poor.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: TEST_MODEL_ID, messages: [] }) });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: { message: 'messages 不能为空', type: 'invalid_request_error', param: null, code: null } });
  });
});

describe('the operator’s catalogue and the openai engine', () => {
  it('an operator adds a model served by an upstream OpenAI-compatible server; calls relay through it with its usage', async () => {
    const { telephone, jwtToken } = await registerUser(t);
    await makeOperator(db(), telephone);
    const operatorToken = await loginToken(t, telephone);
    // The upstream is this platform's own /v1 serving the test model, reached with an API key of the operator's.
    const upstreamKey = (await call<{ token: string }>(t.app, { method: 'POST', url: '/api/v1/settings/token', token: jwtToken, payload: { name: '上游' } })).body.result.token;
    const relay = {
      id: 'relay-tiny',
      name: '转发测试',
      provider: '运营',
      type: 'text',
      contextLength: 2048,
      inputPriceFen: 1000,
      outputPriceFen: 3000,
      engine: 'openai',
      engineModel: TEST_MODEL_ID,
      upstreamUrl: `${base}/v1`,
      upstreamKey,
    };
    expect((await call(t.app, { method: 'POST', url: '/api/v1/admin/models', token: (await registerUser(t)).jwtToken, payload: relay })).status).toBe(403);
    const badEngine = await call(t.app, { method: 'POST', url: '/api/v1/admin/models', token: operatorToken, payload: { ...relay, upstreamUrl: null } });
    expect(badEngine.body).toMatchObject({ rspmsg: 'openai 引擎的模型须给出上游服务地址 upstreamUrl' });
    const created = await call<{ id: string; hasUpstreamKey: boolean }>(t.app, { method: 'POST', url: '/api/v1/admin/models', token: operatorToken, payload: relay });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ id: 'relay-tiny', hasUpstreamKey: true });
    expect(JSON.stringify(created.body)).not.toContain(upstreamKey);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/admin/models', token: operatorToken, payload: relay })).status).toBe(409);

    const caller = await account(10_000);
    await client(caller.apiKey).chat.completions.create({ model: TEST_MODEL_ID, messages: [{ role: 'user', content: '用完免费额度' }], max_tokens: 4 });
    const before = await balanceOf(caller.userId);
    const stream = await client(caller.apiKey).chat.completions.create({ model: 'relay-tiny', messages: [{ role: 'user', content: '你好' }], max_tokens: 6, stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | undefined;
    let text = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    const [row] = await usagesOf(caller.userId);
    // The upstream's own count (its usage chunk), priced at the relay's prices.
    expect(row).toMatchObject({ modelId: 'relay-tiny', inputTokens: usage?.prompt_tokens, outputTokens: usage?.completion_tokens, freeTokens: 0 });
    expect(await balanceOf(caller.userId)).toBe(before - costFen(usage?.prompt_tokens ?? 0, usage?.completion_tokens ?? 0, { inputPriceFen: 1000, outputPriceFen: 3000 }));

    // Taken offline: gone from the catalogue, 404 to calls.
    expect((await call(t.app, { method: 'PUT', url: '/api/v1/admin/models/relay-tiny', token: operatorToken, payload: { enabled: false } })).status).toBe(200);
    expect((await call<Page<ModelView>>(t.app, { method: 'GET', url: '/api/v1/models?name=relay' })).body.result.total).toBe(0);
    const offline = await client(caller.apiKey)
      .chat.completions.create({ model: 'relay-tiny', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(offline).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('per-minute limits', () => {
  it('admits exactly the limit of parallel requests per account and says when to retry', async () => {
    const limited = await createTestApp({ env: { MODELS_DIR: modelsDir, MODEL_FREE_TOKENS: '100000', MODEL_REQUESTS_PER_MINUTE: '3' } });
    try {
      await ensureTestModel(limited.deps);
      const at = await listenLocally(limited);
      const { jwtToken } = await registerUser(limited);
      const created = await call<{ token: string }>(limited.app, { method: 'POST', url: '/api/v1/settings/token', token: jwtToken, payload: { name: '限流' } });
      const apiKey = created.body.result.token;
      const statuses = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${at}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: TEST_MODEL_ID, messages: [{ role: 'user', content: 'hi' }], max_tokens: 2 }),
          }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() })),
        ),
      );
      expect(statuses.filter((answer) => answer.status === 200)).toHaveLength(3);
      const refused = statuses.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(3);
      expect(Number(refused[0]?.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(refused[0]?.body).toContain('每分钟 3 次');
    } finally {
      await limited.close();
    }
  });
});
