import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { modelSchema } from '@slg/shared/views/models';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../core/errors.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { AuthService } from '../auth/service.js';
import { ApiTokenAuthenticator, looksLikeApiToken } from '../tokens/authentication.js';
import type { ChatMessage } from './engines/engine.js';
import { createEngines, ModelApiError, ModelService, modelViewOf, type ChatCaller, type ChatOutcome, type ModelRow } from './service.js';
import { principalOf, requireRole } from '../../http/auth.js';

const errors = { 400: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

/** The public catalogue under /api/v1 (模型中心, 文本模型, 视觉模型). */
export const modelCatalogueRoutes =
  (service: ModelService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/models',
      {
        config: { public: true },
        schema: {
          tags: ['模型'],
          summary: '模型目录（公开）：按类型、名称筛选',
          querystring: pageQuery.extend({
            type: z.enum(['text', 'visual'], { error: '模型类型必须是 text 或 visual' }).optional(),
            name: text('名称').trim().max(64, '名称过长').optional(),
          }),
          response: { 200: envelopeOf(pageSchema(modelSchema)), ...errors },
        },
      },
      async (request) => ok(await service.list(request.query)),
    );
  };

const priceField = (label: string) => z.number({ error: `${label}必须是整数（分 / 百万 token）` }).int(`${label}必须是整数（分 / 百万 token）`).min(0, `${label}不能为负`).max(100_000_000, `${label}过大`);
const modelFields = {
  name: text('名称').trim().min(1, '请输入名称').max(64, '名称不能超过64个字符'),
  provider: text('提供方').trim().min(1, '请输入提供方').max(64, '提供方不能超过64个字符'),
  type: z.enum(['text', 'visual'], { error: '模型类型必须是 text 或 visual' }),
  description: text('描述').max(2000, '描述不能超过2000个字符').optional(),
  tags: z.array(text('标签').trim().min(1).max(16, '每个标签最多16个字符'), { error: '标签必须是字符串数组' }).max(8, '最多8个标签').optional(),
  contextLength: z.number({ error: '上下文长度必须是整数' }).int('上下文长度必须是整数').min(256, '上下文长度至少 256').max(10_000_000, '上下文长度过大'),
  paramSize: text('参数规模').max(16, '参数规模过长').optional(),
  license: text('许可协议').max(64, '许可协议过长').optional(),
  inputPriceFen: priceField('输入价格'),
  outputPriceFen: priceField('输出价格'),
  engine: z.enum(['local', 'openai'], { error: '引擎必须是 local 或 openai' }),
  engineModel: text('引擎中的模型').trim().min(1, '请给出引擎中的模型名（local：.gguf 文件名；openai：上游的模型名）').max(255, '引擎中的模型名过长'),
  upstreamUrl: z.url({ protocol: /^https?$/, error: '上游服务地址须是 http(s) 地址，如 http://10.0.0.5:8000/v1' }).max(2000).nullish(),
  upstreamKey: text('上游 API Key').max(512, '上游 API Key 过长').nullish(),
  isTest: z.boolean().optional(),
  enabled: z.boolean({ error: 'enabled 必须是 true 或 false' }).optional(),
  sortOrder: z.number().int().min(0).max(1_000_000).optional(),
};
const engineRule = (value: { engine?: 'local' | 'openai' | undefined; engineModel?: string | undefined; upstreamUrl?: string | null | undefined }, context: z.RefinementCtx) => {
  if (value.engine === 'local' && value.engineModel !== undefined && !/^[\w.-]+\.gguf$/.test(value.engineModel)) {
    context.addIssue({ code: 'custom', path: ['engineModel'], message: 'local 引擎的 engineModel 须是模型目录中的 .gguf 文件名' });
  }
  if (value.engine === 'openai' && !value.upstreamUrl) context.addIssue({ code: 'custom', path: ['upstreamUrl'], message: 'openai 引擎的模型须给出上游服务地址 upstreamUrl' });
};
const adminModelSchema = modelSchema.extend({
  engineModel: z.string(),
  upstreamUrl: z.string().nullable(),
  hasUpstreamKey: z.boolean(),
  enabled: z.boolean(),
  sortOrder: z.number().int(),
});
const adminViewOf = (row: ModelRow) => ({ ...modelViewOf(row), engineModel: row.engineModel, upstreamUrl: row.upstreamUrl, hasUpstreamKey: row.upstreamKeyEnc !== null, enabled: row.enabled, sortOrder: row.sortOrder });

/** The operator's catalogue (docs/api-models.md "Operator"). */
export const modelAdminRoutes =
  (service: ModelService): FastifyPluginAsyncZod =>
  async (app) => {
    const operator = { preValidation: requireRole('operator') };
    const tags = ['运营'];
    const adminErrors = { ...errors, 401: errorEnvelope, 403: errorEnvelope, 409: errorEnvelope };
    app.get('/admin/models', { ...operator, schema: { tags, summary: '模型目录（含已下线的）', response: { 200: envelopeOf(z.array(adminModelSchema)), ...adminErrors } } }, async () =>
      ok((await service.all()).map(adminViewOf)),
    );
    app.post(
      '/admin/models',
      {
        ...operator,
        schema: {
          tags,
          summary: '上架模型',
          body: z.object({ id: text('模型 ID').regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, '模型 ID 只能包含小写字母、数字、点、下划线和短横线，最多64个字符'), ...modelFields }).superRefine(engineRule),
          response: { 200: envelopeOf(adminModelSchema), ...adminErrors },
        },
      },
      async (request) => ok(adminViewOf(await service.create(principalOf(request).userId, request.body))),
    );
    app.put(
      '/admin/models/:id',
      {
        ...operator,
        schema: {
          tags,
          summary: '修改模型（价格对此后的调用生效；enabled: false 为下线）',
          params: z.object({ id: text('模型 ID').max(64, '模型 ID 过长') }),
          body: z.object(modelFields).partial().superRefine(engineRule),
          response: { 200: envelopeOf(adminModelSchema), ...adminErrors },
        },
      },
      async (request) => ok(adminViewOf(await service.update(principalOf(request).userId, request.params.id, request.body))),
    );
  };

const contentPart = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string().max(20_000_000, '图片过大') }) }),
]);

const chatBody = z.looseObject({
  model: z.string({ error: '请指定 model' }).min(1, '请指定 model').max(64, 'model 过长'),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'user', 'assistant', 'developer'], { error: 'messages 的 role 只能是 system、user、assistant' }),
        content: z.union([z.string(), z.array(contentPart)], { error: 'messages 的 content 必须是字符串或内容数组' }),
      }),
      { error: 'messages 必须是消息数组' },
    )
    .min(1, 'messages 不能为空')
    .max(256, 'messages 过多'),
  max_tokens: z.number({ error: 'max_tokens 必须是整数' }).int('max_tokens 必须是整数').min(1, 'max_tokens 至少为 1').max(1_000_000, 'max_tokens 过大').nullish(),
  max_completion_tokens: z.number({ error: 'max_completion_tokens 必须是整数' }).int('max_completion_tokens 必须是整数').min(1, 'max_completion_tokens 至少为 1').max(1_000_000).nullish(),
  temperature: z.number({ error: 'temperature 必须是数字' }).min(0, 'temperature 为 0–2').max(2, 'temperature 为 0–2').nullish(),
  top_p: z.number({ error: 'top_p 必须是数字' }).min(0, 'top_p 为 0–1').max(1, 'top_p 为 0–1').nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4, 'stop 最多 4 个')]).nullish(),
  stream: z.boolean({ error: 'stream 必须是 true 或 false' }).nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  n: z.literal(1, { error: '只支持 n = 1' }).nullish(),
});

type ChatBody = z.infer<typeof chatBody>;

/** OpenAI's error shape (what its SDKs read), with the platform's Chinese message. */
function sendError(reply: FastifyReply, status: number, message: string, type: string, code: string | null, retryAfterSeconds?: number) {
  if (retryAfterSeconds !== undefined) void reply.header('retry-after', String(retryAfterSeconds));
  return reply.status(status).type('application/json; charset=utf-8').send({ error: { message, type, param: null, code } });
}

/** OpenAI's usage, plus what the call cost (fen) and the free tokens it used (SDKs ignore the extra fields). */
function usageOf(outcome: ChatOutcome) {
  return {
    prompt_tokens: outcome.inputTokens,
    completion_tokens: outcome.outputTokens,
    total_tokens: outcome.inputTokens + outcome.outputTokens,
    cost_fen: outcome.chargedFen,
    free_tokens: outcome.freeTokens,
  };
}

function messagesOf(body: ChatBody): ChatMessage[] {
  return body.messages.map((message) => ({ role: message.role === 'developer' ? 'system' : message.role, content: message.content }));
}

/**
 * The OpenAI-compatible API at /v1 (docs/api-models.md): `GET /v1/models`, `POST /v1/chat/completions`,
 * with an API token (`slg_…`) or a console session as the Bearer; errors in OpenAI's shape.
 */
export const openAiRoutes =
  (deps: AppDeps, service: ModelService): FastifyPluginAsyncZod =>
  async (app) => {
    const sessions = new AuthService(deps).sessions;
    const apiTokens = new ApiTokenAuthenticator(deps);

    app.setErrorHandler((error: FastifyError | AppError | ModelApiError, request, reply) => {
      if (error instanceof ModelApiError) return sendError(reply, error.status, error.message, error.type, error.code, error.retryAfterSeconds);
      if (error instanceof AppError) return sendError(reply, error.status, error.message, error.status === 401 ? 'invalid_request_error' : 'invalid_request_error', null, error.retryAfterSeconds);
      if ('validation' in error && error.validation) {
        const first = (error.validation[0] as { message?: string } | undefined)?.message;
        return sendError(reply, 400, first ?? '请求参数不正确', 'invalid_request_error', null);
      }
      if ((error as FastifyError).statusCode && (error as FastifyError).statusCode! < 500) return sendError(reply, (error as FastifyError).statusCode!, '请求不正确', 'invalid_request_error', null);
      request.log.error({ err: error }, 'model api failed');
      return sendError(reply, 500, '服务器内部错误', 'server_error', null);
    });

    /** The caller from the Bearer: an API token or a console session; 401 otherwise. */
    async function callerOf(request: FastifyRequest): Promise<ChatCaller> {
      const header = request.headers.authorization ?? '';
      const [scheme, token] = header.split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !token) throw new ModelApiError(401, '缺少 API 令牌：请在 Authorization 中以 Bearer 方式提供（控制台 › 个人中心 › API令牌）', 'invalid_request_error', 'invalid_api_key');
      const found = looksLikeApiToken(token) ? await apiTokens.authenticate(token) : await sessions.authenticate(token);
      if (!found) throw new ModelApiError(401, 'API 令牌无效、已停用或已过期', 'invalid_request_error', 'invalid_api_key');
      return { principal: found.principal, apiTokenId: found.principal.apiTokenId ?? null };
    }

    app.get('/models', { config: { public: true }, schema: { hide: true } }, async (request) => {
      await callerOf(request);
      const rows = await service.enabled();
      return { object: 'list', data: rows.map((row) => ({ id: row.id, object: 'model', created: Math.floor(row.createdAt.getTime() / 1000), owned_by: row.provider })) };
    });

    app.post('/chat/completions', { config: { public: true }, schema: { hide: true, body: chatBody } }, async (request, reply) => {
      const caller = await callerOf(request);
      const body = request.body;
      const input = {
        model: body.model,
        messages: messagesOf(body),
        maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
        temperature: body.temperature ?? undefined,
        topP: body.top_p ?? undefined,
        stop: body.stop === undefined || body.stop === null ? undefined : [body.stop].flat(),
        stream: body.stream === true,
      };
      const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
      const created = Math.floor(deps.now().getTime() / 1000);
      const abort = new AbortController();
      // The client went away (a broken-off stream): the engine stops, what it made is still billed.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });

      if (!input.stream) {
        let answer = '';
        const outcome = await service.chat(caller, input, abort.signal, (piece) => {
          answer += piece;
        });
        return {
          id,
          object: 'chat.completion',
          created,
          model: outcome.model.id,
          choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: outcome.finishReason === 'length' ? 'length' : 'stop' }],
          usage: usageOf(outcome),
        };
      }

      // Streamed: the headers go out with the first piece (a refusal before it is still a JSON error).
      let started = false;
      const write = (payload: unknown) => {
        if (!started) {
          reply.hijack();
          reply.raw.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache, no-transform',
            'x-accel-buffering': 'no',
            connection: 'keep-alive',
          });
          started = true;
        }
        if (!reply.raw.writableEnded) reply.raw.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
      };
      const chunk = (delta: Record<string, string>, finishReason: string | null) => ({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
      let outcome;
      try {
        outcome = await service.chat(caller, input, abort.signal, (piece) => {
          if (!started) write(chunk({ role: 'assistant', content: '' }, null));
          write(chunk({ content: piece }, null));
        });
      } catch (error) {
        if (!started) throw error;
        const refusal = error instanceof ModelApiError ? error : new ModelApiError(500, '服务器内部错误', 'server_error');
        write({ error: { message: refusal.message, type: refusal.type, param: null, code: refusal.code } });
        write('[DONE]');
        reply.raw.end();
        return reply;
      }
      if (abort.signal.aborted) {
        if (started) reply.raw.end();
        return reply;
      }
      if (!started) write(chunk({ role: 'assistant', content: '' }, null));
      write(chunk({}, outcome.finishReason === 'length' ? 'length' : 'stop'));
      if (body.stream_options?.include_usage) {
        write({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: usageOf(outcome) });
      }
      write('[DONE]');
      reply.raw.end();
      return reply;
    });
  };

/** Both parts with one service (one local engine for the process). */
export function modelServices(deps: AppDeps): ModelService {
  return new ModelService(deps, createEngines(deps));
}
