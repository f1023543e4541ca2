import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorCodes } from '@slg/shared';
import { AppError } from './errors.js';
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

const FASTIFY_ERRORS: Record<string, keyof typeof ErrorCodes> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION',
};

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
    const mapped = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (mapped) {
      const entry = ErrorCodes[mapped];
      return reply.status(entry.status).send(failure(entry.code, entry.message));
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(failure(ErrorCodes.RATE_LIMITED.code, ErrorCodes.RATE_LIMITED.message));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.warn({ err: error }, 'client error');
      return reply.status(error.statusCode).send(failure(ErrorCodes.VALIDATION.code, ErrorCodes.VALIDATION.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(failure(ErrorCodes.INTERNAL.code, ErrorCodes.INTERNAL.message));
  });
}
