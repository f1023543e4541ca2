import { sql } from 'drizzle-orm';
import { LocalEngine } from '../src/modules/models/engines/local.js';
import type { EngineModel } from '../src/modules/models/engines/engine.js';
import { TEST_MODEL_FILE, TEST_MODEL_ID } from '../src/modules/models/service.js';
import type { BenchContext, TimedScenario } from './scenarios.js';

/** Greedy sampling: the API and the engine called directly generate the same tokens, so their times compare. */
const PROMPT = [{ role: 'user' as const, content: '你好，请介绍一下算力港的 GPU 云' }];
const OVERHEAD_TOKENS = 64;
const THROUGHPUT_TOKENS = 256;
const OVERHEAD_RUNS = 30;
/** The platform's share of a streamed call, on top of the engine's own time. */
const MAX_OVERHEAD_MS = 5;

/** A streamed call through the API: resolves when the first piece of text arrives (`untilFirst`, then hangs up) or at [DONE], with the pieces seen. */
async function streamedCall(context: BenchContext, token: string, maxTokens: number, untilFirst: boolean): Promise<number> {
  const response = await fetch(`${context.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: TEST_MODEL_ID, messages: PROMPT, max_tokens: maxTokens, temperature: 0, stream: true }),
  });
  if (!response.ok || !response.body) throw new Error(`模型调用失败（${response.status}）: ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pieces = 0;
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return pieces;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (event === 'data: [DONE]') return pieces;
      if (event.includes('"content":"') && !event.includes('"content":""')) {
        pieces += 1;
        if (untilFirst) {
          await reader.cancel();
          return pieces;
        }
      }
    }
  }
}

function engineModel(): EngineModel {
  return { id: TEST_MODEL_ID, engine: 'local', engineModel: TEST_MODEL_FILE, contextLength: 2048, upstreamUrl: null, upstreamKey: null };
}

/** The bench account, with free tokens enough for every run (the benches measure time, not billing). */
async function fundedToken(context: BenchContext): Promise<string> {
  const token = await context.signedInToken();
  const me = (await (await fetch(`${context.baseUrl}/api/v1/user/userinfo`, { headers: { authorization: `Bearer ${token}` } })).json()) as { result: { userId: number } };
  await context.database.db.execute(sql`insert into model_allowances (owner_id, granted_tokens, used_tokens) values (${me.result.userId}, 1000000000, 0) on conflict (owner_id) do update set granted_tokens = 1000000000, used_tokens = 0`);
  return token;
}

/** Time to the first token of a streamed call of the test model through the API (no target: a figure). */
export const modelFirstTokenScenario: TimedScenario = {
  kind: 'timed',
  name: 'model-ttft',
  title: 'local engine: time to first token of a streamed /v1/chat/completions (test model)',
  server: 'app',
  targets: {},
  runs: 30,
  prepare: async (context) => {
    const token = await fundedToken(context);
    return { run: async () => void (await streamedCall(context, token, 32, true)) };
  },
};

/** A streamed call of 256 tokens: its time gives the local engine's tokens per second (printed after the runs). */
export const modelThroughputScenario: TimedScenario = {
  kind: 'timed',
  name: 'model-tps',
  title: `local engine: a streamed call of ${THROUGHPUT_TOKENS} tokens (test model; tokens/s printed)`,
  server: 'app',
  targets: {},
  runs: 10,
  prepare: async (context) => {
    const token = await fundedToken(context);
    const rates: number[] = [];
    return {
      run: async () => {
        const started = performance.now();
        const pieces = await streamedCall(context, token, THROUGHPUT_TOKENS, false);
        rates.push(pieces / ((performance.now() - started) / 1000));
      },
      cleanup: async () => {
        const sorted = [...rates].sort((a, b) => a - b);
        console.error(`  本地引擎：每秒 ${Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0)} 个文本片段（中位数，${THROUGHPUT_TOKENS} token 的流式调用）`);
      },
    };
  },
};

/**
 * The platform's overhead on a streamed call: the same request (greedy, 64 tokens) through the API
 * against the engine called directly in this process, measured first. Target: API p95 below the
 * engine's p95 plus MAX_OVERHEAD_MS.
 */
export const modelOverheadScenario: TimedScenario = {
  kind: 'timed',
  name: 'model-overhead',
  title: `streamed call through the platform vs the engine directly (${OVERHEAD_TOKENS} tokens, greedy; target: engine p95 + ${MAX_OVERHEAD_MS} ms)`,
  server: 'app',
  targets: { maxP95Ms: Number.POSITIVE_INFINITY },
  runs: OVERHEAD_RUNS,
  prepare: async (context) => {
    const token = await fundedToken(context);
    const engine = new LocalEngine({ dir: context.modelsDir, concurrency: 1, queueLimit: 0 });
    const direct: number[] = [];
    for (let run = 0; run <= OVERHEAD_RUNS; run += 1) {
      const started = performance.now();
      await engine.run({ model: engineModel(), messages: PROMPT, maxTokens: OVERHEAD_TOKENS, temperature: 0 }, new AbortController().signal, () => undefined);
      if (run > 0) direct.push(performance.now() - started);
    }
    direct.sort((a, b) => a - b);
    const p50 = direct[Math.floor(direct.length * 0.5)] ?? 0;
    const p95 = direct[Math.min(direct.length - 1, Math.ceil(direct.length * 0.95) - 1)] ?? 0;
    modelOverheadScenario.targets.maxP95Ms = Math.round((p95 + MAX_OVERHEAD_MS) * 10) / 10;
    console.error(`  引擎直接调用：p50 ${p50.toFixed(1)} ms，p95 ${p95.toFixed(1)} ms；目标：经平台 p95 < ${modelOverheadScenario.targets.maxP95Ms} ms`);
    return { run: async () => void (await streamedCall(context, token, OVERHEAD_TOKENS, false)) };
  },
};
