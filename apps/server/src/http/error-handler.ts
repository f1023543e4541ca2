import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorCodes, type ErrorCodeName } from '@slg/shared';
import { AppError } from '../core/errors.js';
import { failure } from './envelope.js';
import { labelOf } from './field-labels.js';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string | undefined;
  params: Record<string, unknown>;
}

/** Turns one zod issue into a sentence that names the field in Chinese. */
export function describeIssue(issue: ValidationIssue): string {
  const message = issue.message ?? '';
  // Messages written in the schemas are Chinese and name their field; zod's own English ones get a
  // Chinese sentence built from the field's label.
  if (/[\u4e00-\u9fa5]/.test(message)) return message;
  const label = labelOf(issue.instancePath);
  const received = issue.params.input;
  if (issue.keyword === 'invalid_type' && received === undefined) return `缺少必填项：${label}`;
  switch (issue.keyword) {
    case 'invalid_type':
      return `${label}的类型不正确`;
    case 'too_small':
      return `${label}太短或太小`;
    case 'too_big':
      return `${label}太长或太大`;
    case 'invalid_format':
      return `${label}的格式不正确`;
    case 'invalid_value':
      return `${label}的取值不在允许范围内`;
    case 'unrecognized_keys':
      return `请求中含有不支持的字段：${String((issue.params.keys as string[] | undefined)?.join('、') ?? '')}`;
    default:
      return `${label}不正确`;
  }
}

/** Errors Fastify and its plugins raise for what the client sent: status and code from the shared table, a Chinese message. */
const CLIENT_ERRORS: Record<string, { name: ErrorCodeName; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { name: 'MALFORMED_JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { name: 'MALFORMED_JSON', message: '请求体为空：声明了 JSON 内容类型时请发送 JSON' },
  FST_ERR_CTP_BODY_TOO_LARGE: { name: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { name: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { name: 'VALIDATION', message: '请求体长度与 Content-Length 不符' },
  FST_ERR_BAD_URL: { name: 'VALIDATION', message: '请求地址含有无效的字符' },
  // @fastify/multipart
  FST_INVALID_MULTIPART_CONTENT_TYPE: { name: 'UNSUPPORTED_MEDIA_TYPE', message: '请以 multipart/form-data 格式上传' },
  FST_REQ_FILE_TOO_LARGE: { name: 'PAYLOAD_TOO_LARGE', message: '上传的文件过大' },
  FST_FILES_LIMIT: { name: 'PAYLOAD_TOO_LARGE', message: '上传的文件数量超过限制' },
  FST_FIELDS_LIMIT: { name: 'PAYLOAD_TOO_LARGE', message: '表单字段数量超过限制' },
  FST_PARTS_LIMIT: { name: 'PAYLOAD_TOO_LARGE', message: '表单内容的分段数量超过限制' },
  FST_PROTO_VIOLATION: { name: 'VALIDATION', message: '表单字段名不合法' },
  FST_INVALID_JSON_FIELD_ERROR: { name: 'VALIDATION', message: '表单中的 JSON 字段不是合法的 JSON' },
  FST_MP_PREMATURE_CLOSE: { name: 'VALIDATION', message: '上传未完成，请重新上传' },
};

/** What busboy (under @fastify/multipart) throws for a form that is cut short or has no boundary. */
const BROKEN_MULTIPART = /^(Multipart: Boundary not found|Boundary required)$|unexpected end of multipart data/i;
const BROKEN_MULTIPART_MESSAGE = '上传的表单数据不完整或格式错误，请重新上传';

/**
 * Answer to input that reached the database without being validated first. A last resort: the
 * client still gets a 400, the log gets an error to fix (a missing rule in a schema). Tests assert it
 * never appears.
 */
export const UNVALIDATED_INPUT_MESSAGE = '请求数据无法处理，请检查输入后重试';

/** SQLSTATE classes caused by the data a statement carried: 22 data exception, 54 program limit exceeded. */
const INPUT_SQLSTATE = /^(22|54)[0-9A-Z]{3}$/;

/** The SQLSTATE of a database error, from either driver (drizzle wraps it in `cause`). */
export function sqlStateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Errors Fastify meets before any route is found (bad percent-encoding, an over-long path parameter),
 * answered in the envelope like everything else: the `frameworkErrors` option of the instance.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.warn({ err: error }, 'refused before routing');
  const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? '请求地址中的参数过长' : (CLIENT_ERRORS[error.code]?.message ?? ErrorCodes.VALIDATION.message);
  void reply.status(400).send(failure(ErrorCodes.VALIDATION.code, message));
}

/** The most of an oversized body read and thrown away so its sender can read the 413; beyond it the connection is cut. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * Fastify answers a body over the limit with `Connection: close` and closes the socket while the
 * client is still sending: the client's next write fails (EPIPE, or ECONNRESET on reading) and it
 * never reads why. Instead the rest of the body is read and dropped (up to MAX_DISCARDED_BYTES) and
 * the connection kept, so the 413 arrives after the client has finished sending.
 */
function discardRestOfBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  reply.removeHeader('connection');
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_BYTES) raw.socket.destroy();
  });
  raw.resume();
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send(failure(error.code, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = [...new Set(error.validation.map(describeIssue))].join('；');
      return reply.status(400).send(failure(ErrorCodes.VALIDATION.code, message));
    }
    const known = typeof error.code === 'string' ? CLIENT_ERRORS[error.code] : undefined;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') discardRestOfBody(request, reply);
    if (known) {
      const entry = ErrorCodes[known.name];
      return reply.status(entry.status).send(failure(entry.code, known.message ?? entry.message));
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(failure(ErrorCodes.RATE_LIMITED.code, ErrorCodes.RATE_LIMITED.message));
    }
    const multipartRequest = /^multipart\//i.test(request.headers['content-type'] ?? '');
    if (multipartRequest && error.statusCode === undefined && BROKEN_MULTIPART.test(error.message)) {
      request.log.warn({ err: error }, 'broken multipart upload');
      return reply.status(400).send(failure(ErrorCodes.VALIDATION.code, BROKEN_MULTIPART_MESSAGE));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.warn({ err: error }, 'client error');
      return reply.status(error.statusCode).send(failure(ErrorCodes.VALIDATION.code, ErrorCodes.VALIDATION.message));
    }
    const sqlState = sqlStateOf(error);
    if (sqlState && INPUT_SQLSTATE.test(sqlState)) {
      request.log.error({ err: error, sqlState }, 'input reached the database unvalidated: add a rule for it to the route schema');
      return reply.status(400).send(failure(ErrorCodes.VALIDATION.code, UNVALIDATED_INPUT_MESSAGE));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(failure(ErrorCodes.INTERNAL.code, ErrorCodes.INTERNAL.message));
  });
}
