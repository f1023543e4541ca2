/**
 * The published OpenAPI document (issue 17): generated from the real app, it passes `redocly lint`
 * (the recommended rules) with no error and only the warnings listed below, and every operation's
 * `security` says what the server enforces: called without a token, an operation that demands the
 * bearer scheme answers 401 and one that does not never does.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf, securityOf, type SecurityRequirement } from '../src/http/openapi.js';
import { createTestApp, type TestApp } from './helpers.js';

interface Operation {
  operationId?: string;
  security?: SecurityRequirement[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  [key: string]: unknown;
}
interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/**
 * What the recommended rules still warn about, and why it stays:
 * - info-license: the API is the company's own; naming a licence is not ours to invent;
 * - no-ambiguous-paths ×2: the product spec names GET /settings/token/validate/{id} beside
 *   PATCH /settings/token/{id}/name and /status (the router takes the literal `validate` first).
 */
const ACCEPTED_WARNINGS = [
  'info-license #/info',
  'no-ambiguous-paths #/paths/~1api~1v1~1settings~1token~1{id}~1name',
  'no-ambiguous-paths #/paths/~1api~1v1~1settings~1token~1{id}~1status',
  // The terminal is a WebSocket: its success is 101 Switching Protocols, which OpenAPI has no 2xx for.
  'operation-2xx-response #/paths/~1api~1v1~1rental~1terminal/get/responses',
];

const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/** `redocly lint` (its recommended rules) of one document: the problems it reports. */
async function lint(document: unknown): Promise<LintProblem[]> {
  const folder = await mkdtemp(join(tmpdir(), 'slg-openapi-'));
  try {
    const file = join(folder, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    // It exits 1 when it finds an error; the JSON report is on stdout either way.
    const output = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--format=json', '--max-problems=10000'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw new Error(`redocly lint failed: ${error.stderr ?? String(error)}`);
      return { stdout: error.stdout };
    });
    return (JSON.parse(output.stdout) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const describeProblem = (problem: LintProblem) => `${problem.ruleId} ${problem.location[0]?.pointer ?? ''}`;

let t: TestApp;
let document: Document;
beforeAll(async () => {
  t = await createTestApp();
  document = structuredClone(t.app.swagger()) as Document;
});
afterAll(async () => {
  await t.close();
});

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
const allowsAnonymous = (security: SecurityRequirement[] | undefined) =>
  security !== undefined && (security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0));

describe('the OpenAPI document', () => {
  it('passes redocly lint with no error, and the linter fails a document with one', async () => {
    // The same document with defects of the kinds it once had: a nullable without a type, a path with a
    // trailing slash, no servers. It proves the check can fail.
    const broken = structuredClone(document);
    delete broken.servers;
    broken.paths['/api/v1/broken/'] = { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { nullable: true, anyOf: [{ type: 'number' }] } } } } } } as Operation };
    broken.openapi = '3.0.3';

    const [published, brokenProblems] = await Promise.all([lint(document), lint(broken)]);
    expect(published.filter((problem) => problem.severity === 'error').map((problem) => `${describeProblem(problem)}: ${problem.message}`)).toEqual([]);
    expect(published.map(describeProblem).sort()).toEqual([...ACCEPTED_WARNINGS].sort());

    const brokenErrors = brokenProblems.filter((problem) => problem.severity === 'error').map((problem) => problem.ruleId);
    expect(brokenErrors).toEqual(expect.arrayContaining(['no-empty-servers', 'no-path-trailing-slash', 'nullable-type-sibling']));
  }, 120_000);

  it('gives every operation a unique operationId derived from its method and path', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.length).toBeGreaterThan(100);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, operation } of operations()) expect(operation.operationId).toBe(operationIdOf(method, path));
    expect(operationIdOf('get', '/api/v1/order/{orderNo}')).toBe('getOrderByOrderNo');
    expect(operationIdOf('PUT', '/api/v1/rental/update_charging_rule')).toBe('putRentalUpdateChargingRule');
    expect(operationIdOf('GET', '/api/v1/user/check-phone')).toBe('getUserCheckPhone');
    expect(operationIdOf('GET', '/api/dev/sms')).toBe('getApiDevSms');
  });

  it('documents every /api/v1 route, with the sign-in the server demands of it', () => {
    const documented = new Map(operations().map(({ method, path, operation }) => [`${method} ${path}`, operation]));
    const undocumented: string[] = [];
    const disagreeing: string[] = [];
    expect(t.app.apiRoutes.length).toBeGreaterThan(100);
    for (const route of t.app.apiRoutes) {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      // GET /api/v1/account/ (the product spec's spelling) is the same route as the documented /api/v1/account.
      const operation = documented.get(`${route.method} ${path}`) ?? (path.endsWith('/') ? documented.get(`${route.method} ${path.slice(0, -1)}`) : undefined);
      if (!operation) undocumented.push(`${route.method} ${route.url}`);
      else if (allowsAnonymous(operation.security) !== route.public) disagreeing.push(`${route.method} ${route.url}: ${JSON.stringify(operation.security)}`);
    }
    expect(undocumented).toEqual([]);
    expect(disagreeing).toEqual([]);
  });

  it('declares security: [] or an optional sign-in exactly where a call without a token is not refused with 401', async () => {
    const wrong: string[] = [];
    for (const { method, path, operation } of operations()) {
      expect(operation.security, `${method} ${path}`).toBeDefined();
      const answer = await t.app.inject({
        method: method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: path.replace(/\{[^}]+\}/g, '1'),
        ...(['POST', 'PUT', 'PATCH'].includes(method) ? { payload: {} } : {}),
      });
      if ((answer.statusCode === 401) === allowsAnonymous(operation.security)) wrong.push(`${method} ${path} → ${answer.statusCode}, declares ${JSON.stringify(operation.security)}`);
    }
    expect(wrong).toEqual([]);
    // The calls Stoplight Prism flagged as made with an invalid security scheme.
    for (const path of ['/api/v1/auth/register', '/api/v1/smscode/phone', '/api/v1/smscode/validate', '/api/v1/meta/gpu']) {
      const item = document.paths[path] ?? {};
      for (const operation of Object.values(item)) expect(operation.security, path).toEqual([]);
    }
    expect(document.paths['/api/v1/user/userinfo']?.get?.security).toEqual([{ bearer: [] }]);
  });

  it('answers GET /api/v1/account with and without the trailing slash', async () => {
    for (const url of ['/api/v1/account', '/api/v1/account/']) expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    expect(Object.keys(document.paths)).toContain('/api/v1/account');
    expect(Object.keys(document.paths)).not.toContain('/api/v1/account/');
  });
});

describe('securityOf', () => {
  const route = { method: 'POST', url: '/api/v1/x' };
  it('derives [] for a public route and the bearer scheme for a private one', () => {
    expect(securityOf(route, false, undefined)).toEqual([]);
    expect(securityOf(route, true, undefined)).toEqual([{ bearer: [] }]);
  });
  it('accepts an optional sign-in on a public route and refuses a declaration the server contradicts', () => {
    expect(securityOf(route, false, [{}, { bearer: [] }])).toEqual([{}, { bearer: [] }]);
    expect(() => securityOf(route, false, [{ bearer: [] }])).toThrow(/needs no sign-in/);
    expect(() => securityOf(route, true, [])).toThrow(/answers 401/);
    expect(() => securityOf(route, true, [{}, { bearer: [] }])).toThrow(/answers 401/);
  });
});
