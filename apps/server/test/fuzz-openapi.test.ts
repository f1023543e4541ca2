/**
 * No 5xx on any input: every operation of the app's own OpenAPI document gets a battery of malformed
 * requests (NUL and `%00`, lone surrogates, impossible dates, absurd numbers, wrong types, deep JSON,
 * empty bodies, wrong content types, broken multipart) from an anonymous caller, a signed-in user and
 * an operator. Every answer must be below 500 and, for errors, the JSON envelope with a Chinese
 * message. The list of operations comes from the document, so a route added later is covered too.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import type { InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.js';
import { UNVALIDATED_INPUT_MESSAGE } from '../src/http/error-handler.js';
import { SessionService } from '../src/modules/auth/sessions.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../src/modules/billing/ledger.js';
import { call, createTestApp, rechargeThroughSandbox, registerUser, uniquePhone, type TestApp } from './helpers.js';

// ---- the OpenAPI document ------------------------------------------------------------------------

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface Operation {
  method: string;
  /** e.g. /api/v1/order/{orderNo} */
  template: string;
  pathParams: OpenApiParameter[];
  queryParams: OpenApiParameter[];
  jsonBody: JsonSchema | undefined;
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function operationsOf(document: { paths?: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        queryParams: parameters.filter((parameter) => parameter.in === 'query'),
        jsonBody: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

// ---- plausible values, so that one bad field at a time reaches as deep as it can -------------------

interface Fixtures {
  rechargeId: string;
  freshPhone: string;
}

const ISO_TIME = '2026-06-01T00:00:00+08:00';

/** A value that passes the field's rules where the name is known (so other fields' bad values reach further), else one built from the schema. */
function plausible(name: string, schema: JsonSchema | undefined, fixtures: Fixtures, depth = 0): unknown {
  const known: Record<string, unknown> = {
    telephone: fixtures.freshPhone,
    telephones: [fixtures.freshPhone],
    code: '123456',
    password: 'abc12345',
    oldPassword: 'abc12345',
    countryCode: 86,
    rechargeId: fixtures.rechargeId,
    rechargeIds: [fixtures.rechargeId],
    orderNo: '20260601100000123456',
    provider: 'sandbox',
    email: 'fuzz@example.cn',
    months: ['2026-05'],
    startTime: '2026-05-01T00:00:00+08:00',
    endTime: ISO_TIME,
  };
  return name in known ? known[name] : fromSchema(schema, fixtures, depth);
}

function fromSchema(schema: JsonSchema | undefined, fixtures: Fixtures, depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants && variants.length > 0) return fromSchema(variants.find((variant) => variant.type !== 'null') ?? variants[0], fixtures, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((item) => item !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [fromSchema(schema.items, fixtures, depth + 1)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, property]) => [key, plausible(key, property, fixtures, depth + 1)]),
      );
    case 'string':
      if (schema.format === 'date-time') return ISO_TIME;
      if (schema.format === 'email') return 'fuzz@example.cn';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return 'x';
  }
}

// ---- the battery ----------------------------------------------------------------------------------

/** Raw URL text (already percent-encoded where needed) for path and query values. */
const URL_VALUES = [
  '%00',
  'a%00b',
  '%ED%A0%80', // a surrogate's UTF-8 bytes: invalid UTF-8
  '%C0%80', // overlong NUL
  '%FF%FE',
  '%E4%B8', // cut-off multi-byte character
  '%25',
  '0000-01-01T00:00:00Z',
  '0000-00-00',
  '9999-99-99',
  '9999-12-31T23:59:59Z',
  '275760-09-13T00:00:00.000Z',
  '%2B275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '1e309',
  '-1',
  '-9223372036854775809',
  '99999999999999999999999999',
  '1.5',
  'NaN',
  'Infinity',
  '0x1F',
  'null',
  '%5B%5D',
  '%20',
  'x'.repeat(4000),
  "'%20or%201=1--",
  '..%2F..%2Fetc%2Fpasswd',
  '%F0%9F%98%80',
  '%EF%BC%91%EF%BC%92%EF%BC%93', // full-width digits
];

/** For a parameter already fuzzed with the full list on another operation (the same name and schema, e.g. `page`). */
const URL_VALUES_AGAIN = ['%00', '%ED%A0%80', '0000-01-01T00:00:00Z', '-1', '1e309', 'NaN', 'x'.repeat(4000)];

/** Values for one JSON field. Strings with lone surrogates survive JSON.stringify as `\ud800` escapes. */
const JSON_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '',
  ' ',
  'x'.repeat(20_000),
  '0000-01-01T00:00:00Z',
  '9999-99-99',
  '275760-09-13T00:00:00.000Z',
  '2024-02-30T00:00:00Z',
  1e308,
  -1e308,
  -1,
  0,
  0.5,
  2 ** 53 + 2,
  -(2 ** 63),
  'NaN',
  'Infinity',
  '1e309',
  null,
  true,
  [],
  {},
  [['nested']],
  { $gt: '' },
  ['\u0000'],
  { '\u0000': 1 },
];

/** For a body field already fuzzed with the full list on another operation (the same name and schema). */
const JSON_VALUES_AGAIN: unknown[] = ['\u0000', '\ud800', -1, 1e308, 0.5, null, [], {}];

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Whole JSON bodies that are wrong as a whole. */
const RAW_JSON_BODIES = [
  '',
  'null',
  '[]',
  '"text"',
  '1',
  'true',
  '{',
  '{"a":',
  '{"a":1}}',
  '\u0000',
  '"\\ud800"',
  '{"\\u0000":"\\u0000"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '\ufeff{}',
  deepArray(10_000),
  deepObject(5_000),
  deepArray(40),
];

const BOUNDARY = '----fuzzboundary';
const part = (headers: string, content: string | Buffer) =>
  Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from('\r\n')]);
const field = (name: string, value: string | Buffer) => part(`Content-Disposition: form-data; name="${name}"`, value);
const file = (name: string, content: string | Buffer, filename = 'invoice.pdf') =>
  part(`Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf`, content);
const end = Buffer.from(`--${BOUNDARY}--\r\n`);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Multipart bodies: cut short, without boundary, over the limits, with forbidden names and text. */
const MULTIPART_BODIES: { contentType: string; payload: Buffer }[] = [
  { contentType: 'multipart/form-data', payload: Buffer.from('no boundary at all') },
  { contentType: 'multipart/form-data; boundary=', payload: Buffer.from('--\r\n') },
  { contentType: MULTIPART_TYPE, payload: Buffer.alloc(0) },
  { contentType: MULTIPART_TYPE, payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="invoiceNo"\r\n\r\nINV-1`) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([field('invoiceNo', 'INV-1'), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut`)]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`) },
  { contentType: MULTIPART_TYPE, payload: Buffer.from(`--${BOUNDARY}\r\n\r\n\r\n--${BOUNDARY}--\r\n`) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([field('invoiceNo', 'INV\u0000-1'), file('file', PDF), end]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([field('invoiceNo', Buffer.from([0x49, 0xed, 0xa0, 0x80])), file('file', PDF), end]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([field('invoiceNo', 'INV-1'), file('file', PDF), file('file', PDF), end]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([...Array.from({ length: 12 }, (_, index) => field(`f${index}`, 'x')), file('file', PDF), end]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([field('__proto__', 'x'), field('invoiceNo', 'INV-1'), file('file', PDF), end]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([file('constructor', PDF), end]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([part('Content-Disposition: form-data; name="invoiceNo"\r\nContent-Type: application/json', '{bad'), end]) },
  { contentType: MULTIPART_TYPE, payload: Buffer.concat([field('invoiceNo', 'INV-1'), file('file', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)), end]) },
];

/** Bodies whose content type is not what the route takes. */
const OTHER_CONTENT_TYPES: { contentType: string | undefined; payload: string | Buffer }[] = [
  { contentType: 'text/plain', payload: '{"a":1}' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'a=%00&b=%ED%A0%80' },
  { contentType: 'application/xml', payload: '<a>\u0000</a>' },
  { contentType: 'application/json; charset=latin1', payload: '{}' },
  { contentType: 'application/octet-stream', payload: Buffer.from([0, 1, 2, 255]) },
  { contentType: 'application/json', payload: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]) },
  { contentType: undefined, payload: 'whatever' },
  { contentType: 'garbage', payload: '{}' },
  { contentType: 'application/json', payload: Buffer.from(`{"a":"${'x'.repeat(1024 * 1024)}"}`) },
];

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => values[name] ?? '1');
}

function encodeQuery(entries: [string, string][]): string {
  return entries.map(([key, value]) => `${encodeURIComponent(key)}=${value}`).join('&');
}

/**
 * Every malformed request for one operation (URL values raw, so `%00` arrives as NUL). A parameter or
 * field seen before on another operation with the same schema gets the short list: the full one
 * already went through that schema.
 */
function batteryFor(operation: Operation, fixtures: Fixtures, seen: Set<string>): InjectOptions[] {
  const firstTime = (kind: string, name: string, schema: unknown) => {
    const signature = `${kind}:${name}:${JSON.stringify(schema ?? null)}`;
    if (seen.has(signature)) return false;
    seen.add(signature);
    return true;
  };
  const requests: InjectOptions[] = [];
  const pathValues = Object.fromEntries(
    operation.pathParams.map((parameter) => [parameter.name, encodeURIComponent(String(plausible(parameter.name, parameter.schema, fixtures)))]),
  );
  const queryValues: [string, string][] = operation.queryParams.map((parameter) => [
    parameter.name,
    encodeURIComponent(String(plausible(parameter.name, parameter.schema, fixtures))),
  ]);
  const plausibleBody = operation.jsonBody ? fromSchema(operation.jsonBody, fixtures) : undefined;
  const withBody = (options: InjectOptions): InjectOptions =>
    plausibleBody === undefined || options.payload !== undefined
      ? options
      : { ...options, headers: { 'content-type': 'application/json', ...(options.headers ?? {}) }, payload: JSON.stringify(plausibleBody) };
  const base = (path: string, query: [string, string][]) => `${path}${query.length > 0 ? `?${encodeQuery(query)}` : ''}`;
  const method = operation.method as InjectOptions['method'];

  // Path parameters, one at a time.
  for (const parameter of operation.pathParams) {
    for (const value of firstTime('path', parameter.name, parameter.schema) ? URL_VALUES : URL_VALUES_AGAIN) {
      requests.push(withBody({ method, url: base(fillPath(operation.template, { ...pathValues, [parameter.name]: value }), queryValues) }));
    }
  }
  const path = fillPath(operation.template, pathValues);
  // Query parameters, one at a time, repeated, and unknown ones.
  for (const parameter of operation.queryParams) {
    for (const value of firstTime('query', parameter.name, parameter.schema) ? URL_VALUES : URL_VALUES_AGAIN) {
      const query = queryValues.map(([key, plain]): [string, string] => [key, key === parameter.name ? value : plain]);
      requests.push(withBody({ method, url: base(path, query) }));
    }
    requests.push(withBody({ method, url: base(path, [...queryValues, [parameter.name, '1'], [parameter.name, '2']]) }));
  }
  requests.push(withBody({ method, url: base(path, [...queryValues, ['unknown', '%00']]) }));
  requests.push(withBody({ method, url: `${path}?${'a=%00&'.repeat(2000)}` }));

  if (method === 'GET' || method === 'DELETE') return requests;
  const url = base(path, queryValues);
  // Body fields, one at a time, then whole bodies.
  if (plausibleBody !== null && typeof plausibleBody === 'object' && !Array.isArray(plausibleBody)) {
    for (const key of Object.keys(plausibleBody)) {
      for (const value of firstTime('body', key, operation.jsonBody?.properties?.[key]) ? JSON_VALUES : JSON_VALUES_AGAIN) {
        requests.push({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ...plausibleBody, [key]: value }) });
      }
    }
    requests.push({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ...plausibleBody, 'extra\u0000': 1 }) });
  }
  for (const raw of RAW_JSON_BODIES) requests.push({ method, url, headers: { 'content-type': 'application/json' }, payload: raw });
  for (const body of OTHER_CONTENT_TYPES) {
    requests.push({ method, url, headers: body.contentType === undefined ? {} : { 'content-type': body.contentType }, payload: body.payload });
  }
  for (const body of MULTIPART_BODIES) requests.push({ method, url, headers: { 'content-type': body.contentType }, payload: body.payload });
  return requests;
}

// ---- the run --------------------------------------------------------------------------------------

/** Routes answering in another party's format (a gateway's acknowledgement), not the API envelope. */
const FOREIGN_FORMAT = /^\/api\/v1\/payment\/notify\//;

const isEnvelope = (body: unknown): body is { rspcode: number; code: number; rspmsg: string; result: unknown } =>
  body !== null &&
  typeof body === 'object' &&
  typeof (body as { rspcode?: unknown }).rspcode === 'number' &&
  typeof (body as { code?: unknown }).code === 'number' &&
  typeof (body as { rspmsg?: unknown }).rspmsg === 'string' &&
  'result' in body;

describe('malformed input to every OpenAPI operation', () => {
  let test: TestApp;
  const operatorPhone = uniquePhone();
  const tokens: Record<'anonymous' | 'user' | 'operator', () => Promise<string | undefined>> = {
    anonymous: async () => undefined,
    user: async () => undefined,
    operator: async () => undefined,
  };
  let fixtures: Fixtures;

  beforeAll(async () => {
    test = await createTestApp({ env: { OPERATOR_TELEPHONES: operatorPhone, PAYMENT_PROVIDERS: 'sandbox,bank', BANK_TRANSFER_ACCOUNT: '招商银行北京分行|算力港科技有限公司|110900000010101' } });
    const user = await registerUser(test);
    await registerUser(test, operatorPhone);
    const rechargeId = await rechargeThroughSandbox(test, user.jwtToken, 10_000);
    fixtures = { rechargeId, freshPhone: uniquePhone() };

    // A fuzzed request may sign its caller out (logout, password change): a fresh session each time it did.
    const sessions = new SessionService(test.deps);
    const signedIn = (telephone: string) => {
      let token: string | undefined;
      return async () => {
        if (token) {
          const probe = await call(test.app, { method: 'GET', url: '/api/v1/user/userinfo', token });
          if (probe.status === 200) return token;
        }
        const [account] = await test.deps.database.db.select({ id: users.id }).from(users).where(eq(users.telephone, telephone));
        if (!account) throw new Error(`no account ${telephone}`);
        token = (await sessions.start(test.deps.database.db, account.id)).jwtToken;
        return token;
      };
    };
    tokens.user = signedIn(user.telephone);
    tokens.operator = signedIn(operatorPhone);
  });

  afterAll(async () => {
    await test?.close();
  });

  it('answers every request below 500, errors in the envelope with a Chinese message', async () => {
    const operations = operationsOf(test.app.swagger() as Parameters<typeof operationsOf>[0]);
    expect(operations.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const seen = new Set<string>();
    let sent = 0;
    for (const operation of operations) {
      const battery = batteryFor(operation, fixtures, seen);
      // The user already got past sign-in and permissions where the operator would (every route but
      // the operator's own): there the operator only gets a sample.
      let userFuzzed = false;
      for (const role of ['anonymous', 'user', 'operator'] as const) {
        const token = await tokens[role]();
        const authorization: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        // A few at a time: quicker, and twins racing each other are part of the test. A route that
        // refuses this caller before reading input (401/403 to the first chunks) is not fuzzed further.
        let refusedOnly = true;
        for (let start = 0; start < battery.length; start += 8) {
          if (start >= 24 && (refusedOnly || (role === 'operator' && userFuzzed))) break;
          const chunk = battery.slice(start, start + 8);
          const answers = await Promise.all(
            chunk.map((request) => test.app.inject({ ...request, headers: { ...(request.headers ?? {}), ...authorization } })),
          );
          sent += answers.length;
          answers.forEach((response, index) => {
            const request = chunk[index] as InjectOptions;
            const label = `${role} ${String(request.method)} ${String(request.url).slice(0, 160)} [${String((request.headers as Record<string, string> | undefined)?.['content-type'] ?? '')}] ${typeof request.payload === 'string' ? request.payload.slice(0, 60) : ''}`;
            let body: unknown;
            try {
              body = response.json();
            } catch {
              body = undefined;
            }
            if (response.statusCode !== 401 && response.statusCode !== 403) refusedOnly = false;
            if (response.statusCode >= 500) {
              failures.push(`${label} → ${response.statusCode} ${response.body.slice(0, 200)}`);
              return;
            }
            if (FOREIGN_FORMAT.test(operation.template)) return;
            if (response.statusCode >= 400) {
              if (!isEnvelope(body)) failures.push(`${label} → ${response.statusCode} not an envelope: ${response.body.slice(0, 200)}`);
              else if (!/[\u4e00-\u9fa5]/.test(body.rspmsg)) failures.push(`${label} → ${response.statusCode} message not Chinese: ${body.rspmsg}`);
              else if (body.rspmsg === UNVALIDATED_INPUT_MESSAGE) failures.push(`${label} → reached the database unvalidated`);
            } else if (String(response.headers['content-type'] ?? '').startsWith('application/json') && !isEnvelope(body)) {
              failures.push(`${label} → ${response.statusCode} not an envelope: ${response.body.slice(0, 200)}`);
            }
          });
        }
        if (role === 'user' && !refusedOnly) userFuzzed = true;
      }
    }
    expect(sent).toBeGreaterThan(3000);
    // One line per kind of failure (route and answer), so the report shows every defect at once.
    const kinds = new Map<string, string>();
    for (const failure of failures) {
      const kind = failure.replace(/^(\S+ \S+ \S+?)(\?| ).*?→/, '$1 →').replace(/\/[^/\s]*%[^/\s]*/g, '/…').slice(0, 160);
      if (!kinds.has(kind)) kinds.set(kind, failure);
    }
    expect([...kinds.values()].slice(0, 60), `${failures.length} of ${sent} answers failed`).toEqual([]);

    // Nothing half-written: money still adds up.
    expect(await walletsOutOfBalance(test.deps.database.db)).toEqual([]);
    expect(await unbalancedTransactions(test.deps.database.db)).toEqual([]);
  }, 120_000);
});
