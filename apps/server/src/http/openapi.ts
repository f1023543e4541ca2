import type { FastifyInstance } from 'fastify';
import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import { errorEnvelope } from './envelope.js';

/**
 * The OpenAPI document the server publishes at /api/docs (JSON at /api/docs/json), generated from the
 * route schemas. What every operation says beyond its schema is derived here, in one place, from what
 * the server really does:
 * - `security`: `[]` where the server asks for no sign-in, the bearer scheme where it answers 401
 *   without one (read from `app.apiRoutes`, the record http/auth.ts keeps of every /api/v1 route);
 * - `operationId`: from the method and the path, so it is unique and changes only with them;
 * - a `4XX` answer in the error envelope where a route lists none (the error handler and the rate
 *   limiter answer every refusal in it).
 * OpenAPI 3.1: its schemas are JSON Schema 2020-12, where null is a type of its own (the 3.0 conversion
 * wrote `1 | 2 | 3 | null` as `nullable` without a `type`, which 3.0 forbids; see docs/decisions.md).
 */

const API_DOCS_PREFIX = '/api/docs';
const OPENAPI_VERSION = '3.1.0';
const BEARER = 'bearer';
const ERROR_RESPONSE = 'Error';
const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type SecurityRequirement = Record<string, string[]>;
const PUBLIC_SECURITY: SecurityRequirement[] = [];
export const SIGNED_IN_SECURITY: SecurityRequirement[] = [{ [BEARER]: [] }];
/** For a public route's schema whose handler also uses the caller when a token comes with the request. */
export const OPTIONAL_SIGN_IN_SECURITY: SecurityRequirement[] = [{}, ...SIGNED_IN_SECURITY];

interface Operation {
  operationId?: string;
  security?: SecurityRequirement[];
  responses?: Record<string, unknown>;
}
type PathItem = Partial<Record<(typeof OPERATION_METHODS)[number], Operation>>;
interface Document {
  paths?: Record<string, PathItem>;
  components?: { responses?: Record<string, unknown> };
}

/**
 * `getOrderByOrderNo` for GET /api/v1/order/{orderNo}: the method, then each path segment in camel
 * case (a parameter as `By…`), without the /api/v1 every API path shares.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1(?=\/|$)/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .flatMap((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment);
      const parts = (parameter ? parameter[1]! : segment).split(/[^A-Za-z0-9]+/).filter((part) => part !== '');
      return parameter ? ['By', ...parts] : parts;
    });
  return method.toLowerCase() + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/**
 * The security a route's operation declares. A route may state its own only to add an optional
 * sign-in to a public route (`[{}, { bearer: [] }]`: it also uses the caller when a token comes);
 * one that disagrees with the server's rule stops the document from being built.
 */
export function securityOf(route: { method: string; url: string }, signInRequired: boolean, declared: unknown): SecurityRequirement[] {
  const required = signInRequired ? SIGNED_IN_SECURITY : PUBLIC_SECURITY;
  if (declared === undefined) return required;
  const requirements = Array.isArray(declared) ? (declared as SecurityRequirement[]) : [];
  const allowsAnonymous = requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0);
  if (allowsAnonymous === signInRequired) {
    throw new Error(
      `${route.method} ${route.url} declares security ${JSON.stringify(declared)}, but the server ${signInRequired ? 'answers 401 without a token' : 'needs no sign-in'} there`,
    );
  }
  return requirements;
}

function withOperationIdsAndErrors(document: Document): Document {
  const seen = new Map<string, string>();
  let answersErrorsGenerically = false;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const operationId = operationIdOf(method, path);
      const twin = seen.get(operationId);
      if (twin) throw new Error(`operationId ${operationId} of ${method.toUpperCase()} ${path} is also that of ${twin}`);
      seen.set(operationId, `${method.toUpperCase()} ${path}`);
      operation.operationId = operationId;
      const responses = (operation.responses ??= {});
      if (!Object.keys(responses).some((status) => status.startsWith('4'))) {
        responses['4XX'] = { $ref: `#/components/responses/${ERROR_RESPONSE}` };
        answersErrorsGenerically = true;
      }
    }
  }
  if (answersErrorsGenerically) {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(errorEnvelope, { target: 'draft-2020-12', io: 'output' });
    document.components = {
      ...document.components,
      responses: {
        ...document.components?.responses,
        [ERROR_RESPONSE]: { description: '请求被拒绝（统一错误响应格式）', content: { 'application/json': { schema } } },
      },
    };
  }
  return document;
}

export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  let signInRequired: Map<string, boolean> | undefined;
  const requiresSignIn = (method: string, url: string): boolean => {
    // The same test as the authentication hook: only /api/v1 is ever signed in to.
    if (!url.startsWith('/api/v1/')) return false;
    signInRequired ??= new Map(app.apiRoutes.map((route) => [`${route.method} ${route.url}`, !route.public]));
    const required = signInRequired.get(`${method} ${url}`);
    if (required === undefined) throw new Error(`${method} ${url} is missing from app.apiRoutes`);
    return required;
  };

  await app.register(swagger, {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: { title: `${config.appTitle} API`, version: '1.0.0', description: '统一响应格式：{rspcode, code, rspmsg, result}' },
      // Relative: the server serving this document, so Swagger UI calls the origin it was opened from.
      servers: [{ url: '/', description: config.appTitle }],
      components: {
        securitySchemes: {
          [BEARER]: { type: 'http', scheme: 'bearer', description: '登录返回的 jwtToken，或 API 令牌（slg_ 开头；登录、令牌、密码、手机号与子账号管理只接受登录令牌）' },
        },
      },
      security: SIGNED_IN_SECURITY,
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const schema = transformed.schema as { hide?: boolean; security?: unknown };
      if (schema.hide) return transformed;
      const { route } = input;
      const method = [route.method].flat().find((name) => name !== 'HEAD') ?? 'GET';
      schema.security = securityOf({ method, url: route.url }, requiresSignIn(method, route.url), (input.schema as { security?: unknown }).security);
      return transformed;
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) throw new Error('the API document is OpenAPI, not Swagger 2.0');
      return withOperationIdsAndErrors(documentObject.openapiObject as Document) as ReturnType<SwaggerTransformObject>;
    },
  });
  await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX });
}
