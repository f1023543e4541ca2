import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { AppError } from '../core/errors.js';
import { labelOf } from './field-labels.js';

/**
 * The one place where text no form can produce is refused, for every route, before any rule of the
 * route runs: NUL characters (PostgreSQL cannot store them in text), unpaired UTF-16 surrogates (JSON
 * can carry `\ud800`, UTF-8 cannot) and JSON nested deeper than any request of ours needs (a
 * validator walking it could exhaust the stack). Keys are checked as well as values.
 */

/** No request body of this API nests deeper than a handful of levels. */
export const MAX_INPUT_DEPTH = 32;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type InputProblem = 'nul' | 'surrogate' | 'depth';

export interface ForbiddenInput {
  problem: InputProblem;
  /** Where in the part it sits, e.g. ['telephones', '3']. */
  path: string[];
  /** The last step of the path (a field's name) is itself the bad text. */
  inKey?: true;
}

function problemOfText(text: string): InputProblem | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return null;
}

/** The first forbidden text in a parsed request part, walked without recursion (so depth cannot overflow the stack). */
export function findForbiddenInput(value: unknown): ForbiddenInput | null {
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop() as { value: unknown; path: string[] };
    if (typeof current === 'string') {
      const problem = problemOfText(current);
      if (problem) return { problem, path };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= MAX_INPUT_DEPTH) return { problem: 'depth', path };
    if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, path: [...path, String(index)] }));
      continue;
    }
    // Bytes (a raw body, an upload) are the route's to judge.
    if (ArrayBuffer.isView(current)) continue;
    for (const [key, item] of Object.entries(current)) {
      const problem = problemOfText(key);
      if (problem) return { problem, path: [...path, key], inKey: true };
      pending.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

/** The Chinese refusal naming the field the user knows. */
export function describeForbiddenInput(found: ForbiddenInput): string {
  if (found.problem === 'depth') return `请求内容嵌套层级过深（最多${MAX_INPUT_DEPTH}层）`;
  // Array positions say nothing to a person: name the list they belong to.
  const label = found.inKey ? '请求中的字段名' : labelOf(`/${found.path.filter((segment) => !/^\d+$/.test(segment)).join('/')}`);
  return found.problem === 'nul' ? `${label}含有不允许的空字符（U+0000），请删除后重试` : `${label}含有无效的字符编码（不成对的代理字符），请检查后重试`;
}

function refusal(found: ForbiddenInput): AppError {
  return new AppError('VALIDATION', describeForbiddenInput(found));
}

/**
 * The zod validator compiler behind the guard: each schema-checked part (params, querystring, body,
 * headers) is screened before zod sees it. Runs at Fastify's validation step, so after the routes'
 * own preValidation hooks (sign-in and permission checks).
 */
export const guardedValidatorCompiler: FastifySchemaCompiler<ZodType> = (routeSchema) => {
  const validate = validatorCompiler(routeSchema);
  return (data: unknown) => {
    const found = findForbiddenInput(data);
    if (found) return { error: refusal(found) };
    return validate(data);
  };
};

const hasSchemaFor = (request: FastifyRequest, part: 'params' | 'querystring' | 'body'): boolean => {
  const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
  return schema?.[part] !== undefined;
};

/**
 * Installs the guard: the validator compiler for schema-checked parts, and a preHandler for parts a
 * route reads without a schema (e.g. a hidden page's `:id`). Raw bodies kept as text or bytes (signed
 * gateway notifications, forms) or passed on unread as a stream (the tools gateway) are the route's to
 * judge and are left alone.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.setValidatorCompiler(guardedValidatorCompiler);
  // A callback hook, not an async one: it runs on every request and has nothing to wait for.
  app.addHook('preHandler', (request, _reply, done) => {
    const unchecked: unknown[] = [];
    if (!hasSchemaFor(request, 'params')) unchecked.push(request.params);
    if (!hasSchemaFor(request, 'querystring')) unchecked.push(request.query);
    if (!hasSchemaFor(request, 'body') && request.body !== null && typeof request.body === 'object' && !Buffer.isBuffer(request.body) && !(request.body instanceof Readable)) {
      unchecked.push(request.body);
    }
    for (const part of unchecked) {
      const found = findForbiddenInput(part);
      if (found) {
        done(refusal(found));
        return;
      }
    }
    done();
  });
}
