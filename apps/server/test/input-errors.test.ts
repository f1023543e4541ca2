/**
 * Bad input is refused with 400 (or 413/415) and a Chinese message decided in one place: the input
 * guard at the validation step (NUL, lone surrogates, deep JSON), the shared date field of every date
 * filter, and the error handler (broken multipart, bad URLs). What still reaches the database is
 * answered 400 but flagged, so that the fuzz test can insist it never happens.
 */
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling, sqlStateOf, UNVALIDATED_INPUT_MESSAGE } from '../src/http/error-handler.js';
import { describeForbiddenInput, findForbiddenInput, MAX_INPUT_DEPTH } from '../src/http/input-guard.js';
import { call, createTestApp, registerUser, uniquePhone, type TestApp } from './helpers.js';

describe('findForbiddenInput', () => {
  it('finds NUL and unpaired surrogates in values and keys, at any depth, and lets proper text pass', () => {
    expect(findForbiddenInput({ name: 'a\u0000b' })).toEqual({ problem: 'nul', path: ['name'] });
    expect(findForbiddenInput({ list: ['ok', '\ud800'] })).toEqual({ problem: 'surrogate', path: ['list', '1'] });
    expect(findForbiddenInput({ a: { 'x\udc00': 1 } })).toEqual({ problem: 'surrogate', path: ['a', 'x\udc00'], inKey: true });
    expect(findForbiddenInput('\udc00\ud800')).toEqual({ problem: 'surrogate', path: [] });
    expect(findForbiddenInput({ name: '算力港 😀 ＡＢＣ', n: 1, b: null, list: [[1]] })).toBeNull();
    expect(findForbiddenInput(Buffer.from([0, 1, 2]))).toBeNull();
  });

  it('refuses nesting deeper than the limit without recursing (no stack overflow)', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200_000; level += 1) deep = [deep];
    expect(findForbiddenInput(deep)?.problem).toBe('depth');
    let fine: unknown = 'leaf';
    for (let level = 0; level < MAX_INPUT_DEPTH - 1; level += 1) fine = { a: fine };
    expect(findForbiddenInput(fine)).toBeNull();
  });

  it('names the field in Chinese, lists by their own name', () => {
    expect(describeForbiddenInput({ problem: 'nul', path: ['nickName'] })).toBe('昵称含有不允许的空字符（U+0000），请删除后重试');
    expect(describeForbiddenInput({ problem: 'surrogate', path: ['telephones', '2'] })).toBe('手机号列表含有无效的字符编码（不成对的代理字符），请检查后重试');
  });
});

describe('bad input over HTTP', () => {
  let test: TestApp;
  let token: string;
  let operatorToken: string;
  const operatorPhone = uniquePhone();

  beforeAll(async () => {
    test = await createTestApp({ env: { OPERATOR_TELEPHONES: operatorPhone } });
    token = (await registerUser(test)).jwtToken;
    operatorToken = (await registerUser(test, operatorPhone)).jwtToken;
  });

  afterAll(async () => {
    await test?.close();
  });

  const json = (payload: string) => ({ 'content-type': 'application/json', payload });

  it('refuses NUL, lone surrogates and deep JSON in bodies with the field named', async () => {
    const cases: [string, string][] = [
      ['{"nickName":"a\\u0000b"}', '昵称含有不允许的空字符（U+0000），请删除后重试'],
      ['{"nickName":"\\ud800"}', '昵称含有无效的字符编码（不成对的代理字符），请检查后重试'],
      ['{"nickName":"ok","\\u0000":1}', '请求中的字段名含有不允许的空字符（U+0000），请删除后重试'],
      [`{"nickName":${'['.repeat(100)}${']'.repeat(100)}}`, `请求内容嵌套层级过深（最多${MAX_INPUT_DEPTH}层）`],
      [`${'['.repeat(50_000)}${']'.repeat(50_000)}`, `请求内容嵌套层级过深（最多${MAX_INPUT_DEPTH}层）`],
    ];
    for (const [payload, message] of cases) {
      const { payload: body, ...headers } = json(payload);
      const answer = await call(test.app, { method: 'POST', url: '/api/v1/user/updateNickname', token, headers, payload: body });
      expect(answer.status, payload.slice(0, 40)).toBe(400);
      expect(answer.body.rspmsg).toBe(message);
    }
  });

  it('checks the caller before the input: an anonymous NUL gets 401, not a hint about the body', async () => {
    const answer = await call(test.app, { method: 'POST', url: '/api/v1/user/updateNickname', headers: { 'content-type': 'application/json' }, payload: '{"nickName":"\\u0000"}' });
    expect(answer.status).toBe(401);
  });

  it('refuses %00 in path ids and query values, with and without a schema for them', async () => {
    const byOperator = await call(test.app, { method: 'POST', url: '/api/v1/admin/recharge/a%00b/confirm', token: operatorToken, payload: {} });
    expect(byOperator.status).toBe(400);
    expect(byOperator.body.rspmsg).toBe('充值单号含有不允许的空字符（U+0000），请删除后重试');
    const patterned = await call(test.app, { method: 'GET', url: '/api/v1/payment/recharge/%00', token });
    expect(patterned.body.rspmsg).toBe('充值单号含有不允许的空字符（U+0000），请删除后重试');
    // A hidden page without a params schema and a query the route does not declare.
    const page = await call(test.app, { method: 'GET', url: '/sandbox-pay/RC%00' });
    expect(page.status).toBe(400);
    expect(page.body.rspmsg).toBe('充值单号含有不允许的空字符（U+0000），请删除后重试');
    const ignored = await call(test.app, { method: 'GET', url: '/api/v1/meta/gpu?x=%00' });
    expect(ignored.status).toBe(400);
  });

  it('refuses dates outside 2000–2099 and impossible dates in every date filter', async () => {
    const filters = ['/api/v1/payment/recharge', '/api/v1/ledger/entries', '/api/v1/bills', '/api/v1/bills/export', '/api/v1/order'];
    const cases: [string, string][] = [
      ['startTime=0000-01-01T00:00:00Z', '开始时间须在2000年至2099年之间'],
      ['endTime=1999-12-31T23:59:59%2B08:00', '结束时间须在2000年至2099年之间'],
      ['endTime=2100-01-01T00:00:00%2B08:00', '结束时间须在2000年至2099年之间'],
      ['startTime=9999-99-99', '开始时间格式不正确，应为带时区的时间，如 2026-06-01T00:00:00+08:00'],
      ['startTime=2025-02-29T00:00:00Z', '开始时间格式不正确，应为带时区的时间，如 2026-06-01T00:00:00+08:00'],
      ['startTime=%2B275760-09-13T00:00:00.000Z', '开始时间格式不正确，应为带时区的时间，如 2026-06-01T00:00:00+08:00'],
      ['startTime=2026-06-01T00:00:00Z&endTime=2026-05-01T00:00:00Z', '开始时间必须早于结束时间'],
    ];
    for (const url of filters) {
      for (const [query, message] of cases) {
        const answer = await call(test.app, { method: 'GET', url: `${url}?${query}`, token });
        expect(answer.status, `${url}?${query}`).toBe(400);
        expect(answer.body.rspmsg).toBe(message);
      }
      const fine = await test.app.inject({ method: 'GET', url: `${url}?startTime=2000-01-01T00:00:00%2B08:00&endTime=2099-12-31T23:59:59%2B08:00`, headers: { authorization: `Bearer ${token}` } });
      expect(fine.statusCode, url).toBe(200);
    }
  });

  it('answers broken and oversized multipart uploads with 400/413 and a Chinese message', async () => {
    const boundary = '----b';
    const type = `multipart/form-data; boundary=${boundary}`;
    const part = (headers: string, content: string | Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from('\r\n')]);
    const field = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value);
    const end = Buffer.from(`--${boundary}--\r\n`);
    const cases: [string, string | Buffer, number, string][] = [
      ['multipart/form-data', 'no boundary', 400, '上传的表单数据不完整或格式错误，请重新上传'],
      [type, `--${boundary}\r\nContent-Disposition: form-data; name="invoiceNo"\r\n\r\nINV-1`, 400, '上传的表单数据不完整或格式错误，请重新上传'],
      [type, Buffer.concat([field('invoiceNo', 'INV-1'), Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF cut`)]), 400, '上传的表单数据不完整或格式错误，请重新上传'],
      [type, Buffer.concat([...Array.from({ length: 12 }, (_, index) => field(`f${index}`, 'x')), end]), 413, '表单字段数量超过限制'],
      [type, Buffer.concat([field('__proto__', 'x'), end]), 400, '表单字段名不合法'],
      [type, Buffer.concat([part('Content-Disposition: form-data; name="invoiceNo"\r\nContent-Type: application/json', '{bad'), end]), 400, '表单中的 JSON 字段不是合法的 JSON'],
    ];
    for (const [contentType, payload, status, message] of cases) {
      const answer = await call(test.app, { method: 'POST', url: '/api/v1/admin/invoices/1/issue', token: operatorToken, headers: { 'content-type': contentType }, payload });
      expect(answer.status, message).toBe(status);
      expect(answer.body.rspmsg).toBe(message);
    }
  });

  it('answers bad percent-encoding and over-long path parameters in the envelope', async () => {
    const badUrl = await call(test.app, { method: 'GET', url: '/api/v1/order/%ED%A0%80', token });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.rspmsg).toBe('请求地址含有无效的字符');
    const long = await call(test.app, { method: 'GET', url: `/api/v1/order/${'9'.repeat(500)}`, token });
    expect(long.status).toBe(400);
    expect(long.body.rspmsg).toBe('请求地址中的参数过长');
  });
});

describe('the last resort for input the database refuses', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test?.close();
  });

  it('reads the SQLSTATE through drizzle’s wrapper', async () => {
    const error = await test.deps.database.db.execute(sql`select ${'abc'}::int`).catch((caught: unknown) => caught);
    expect(sqlStateOf(error)).toBe('22P02');
    expect(sqlStateOf(new Error('plain'))).toBeUndefined();
  });

  it('answers a data exception 400 with the flagged message, and a real bug still 500', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    const db = test.deps.database.db;
    app.get('/bad-cast', async () => db.execute(sql`select ${'abc'}::int`));
    app.get('/year-zero', async () => db.execute(sql`select ${'0000-01-01T00:00:00Z'}::timestamptz`));
    app.get('/bug', async () => {
      throw new TypeError('a real bug');
    });
    await app.ready();
    for (const url of ['/bad-cast', '/year-zero']) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json()).toMatchObject({ rspcode: 40000, rspmsg: UNVALIDATED_INPUT_MESSAGE });
    }
    expect((await app.inject({ method: 'GET', url: '/bug' })).statusCode).toBe(500);
    await app.close();
  });
});
