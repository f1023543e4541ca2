import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { aliyunRpcSignature } from '../sms/aliyun.js';
import { tc3Authorization } from '../sms/tencent.js';
import { AliyunHumanCheck } from './aliyun.js';
import { AltchaHumanCheck } from './altcha.js';
import { HumanCheckUnavailable } from './provider.js';
import { SpentHumanChecks } from './spent.js';
import { TencentHumanCheck } from './tencent.js';

let t: TestApp;
let spent: SpentHumanChecks;
beforeAll(async () => {
  t = await createTestApp();
  spent = new SpentHumanChecks(t.deps.database.db);
});
afterAll(async () => {
  await t.close();
});

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch that records each request and answers with the next canned vendor response. */
function fakeFetch(answers: (() => Response)[]) {
  const requests: Recorded[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    requests.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: String(init?.body ?? ''),
    });
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    return next();
  };
  return { fetchImpl, requests };
}

const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const NOW = new Date('2026-06-01T02:00:00Z');

describe('Aliyun captcha 2.0 (VerifyIntelligentCaptcha)', () => {
  const base = { accessKeyId: 'LTAI-test', accessKeySecret: 'secret', sceneId: 'scene-1', prefix: 'abc123', region: 'cn' as const };
  const passed = json({ RequestId: 'r1', Success: true, Code: 'Success', Result: { VerifyResult: true, VerifyCode: 'T001' } });

  it('tells the console the prefix, scene and region, and nothing secret', async () => {
    const check = new AliyunHumanCheck({ ...base, spent });
    const challenge = await check.challenge();
    expect(challenge).toEqual({ provider: 'aliyun', aliyun: { prefix: 'abc123', sceneId: 'scene-1', region: 'cn' } });
    expect(JSON.stringify(challenge)).not.toContain('secret');
  });

  it('posts the documented signed RPC request and passes a verified parameter once', async () => {
    const { fetchImpl, requests } = fakeFetch([passed, passed]);
    const check = new AliyunHumanCheck({ ...base, spent, fetchImpl, now: () => NOW });
    const param = `{"sceneId":"scene-1","certifyId":"${crypto.randomUUID()}","deviceToken":"dG9rZW4=","data":"a+b/c=="}`;
    expect(await check.verify(param)).toBe(true);

    const [request] = requests;
    expect(request?.url).toBe('https://captcha.cn-shanghai.aliyuncs.com/');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request?.body);
    expect(Object.fromEntries(form)).toMatchObject({
      Action: 'VerifyIntelligentCaptcha',
      Version: '2023-03-05',
      Format: 'JSON',
      AccessKeyId: 'LTAI-test',
      CaptchaVerifyParam: param,
      SceneId: 'scene-1',
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      Timestamp: '2026-06-01T02:00:00Z',
    });
    const unsigned = Object.fromEntries([...form.entries()].filter(([key]) => key !== 'Signature'));
    expect(form.get('Signature')).toBe(aliyunRpcSignature(unsigned, 'secret', 'POST'));

    // Aliyun refuses a second use itself (F008); the same parameter is refused here in any case.
    expect(await check.verify(param)).toBe(false);
  });

  it('refuses a parameter Aliyun does not verify, and says when Aliyun cannot be asked', async () => {
    const { fetchImpl, requests } = fakeFetch([
      json({ Success: true, Code: 'Success', Result: { VerifyResult: false, VerifyCode: 'F001' } }),
      json({ Code: 'InvalidAccessKeyId.NotFound', Message: 'Specified access key is not found.' }, 404),
      json({ Code: 'InternalError' }, 500),
      () => {
        throw new TypeError('fetch failed');
      },
    ]);
    const check = new AliyunHumanCheck({ ...base, region: 'sgp', spent, fetchImpl });
    expect(await check.verify('attack')).toBe(false);
    expect(requests[0]?.url).toBe('https://captcha.ap-southeast-1.aliyuncs.com/');
    await expect(check.verify('p2')).rejects.toBeInstanceOf(HumanCheckUnavailable);
    await expect(check.verify('p3')).rejects.toBeInstanceOf(HumanCheckUnavailable);
    await expect(check.verify('p4')).rejects.toBeInstanceOf(HumanCheckUnavailable);
    expect(await check.verify('  ')).toBe(false);
    expect(requests).toHaveLength(4);
  });
});

describe('Tencent captcha (DescribeCaptchaResult)', () => {
  const base = { secretId: 'AKID-test', secretKey: 'tc-secret', captchaAppId: 190000000, appSecretKey: 'app-secret' };
  const solution = (ticket: string) => JSON.stringify({ ticket, randstr: '@abc' });

  it('tells the console the app id only', async () => {
    const challenge = await new TencentHumanCheck({ ...base, spent }).challenge();
    expect(challenge).toEqual({ provider: 'tencent', tencent: { captchaAppId: '190000000' } });
  });

  it('posts the documented TC3-signed request with the client address and passes a ticket once', async () => {
    const ok = json({ Response: { CaptchaCode: 1, CaptchaMsg: 'OK', EvilLevel: 0, RequestId: 'r' } });
    const { fetchImpl, requests } = fakeFetch([ok, ok]);
    const check = new TencentHumanCheck({ ...base, spent, fetchImpl, now: () => NOW });
    const ticket = `tr0${crypto.randomUUID()}`;
    expect(await check.verify(solution(ticket), '203.0.113.9')).toBe(true);

    const [request] = requests;
    expect(request?.url).toBe('https://captcha.tencentcloudapi.com/');
    expect(request?.method).toBe('POST');
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      CaptchaType: 9,
      Ticket: ticket,
      UserIp: '203.0.113.9',
      Randstr: '@abc',
      CaptchaAppId: 190000000,
      AppSecretKey: 'app-secret',
    });
    const timestamp = Math.floor(NOW.getTime() / 1000);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-tc-action': 'DescribeCaptchaResult',
      'x-tc-version': '2019-07-22',
      'x-tc-timestamp': String(timestamp),
      authorization: tc3Authorization({
        secretId: 'AKID-test',
        secretKey: 'tc-secret',
        host: 'captcha.tencentcloudapi.com',
        service: 'captcha',
        action: 'DescribeCaptchaResult',
        payload: request?.body ?? '',
        timestamp,
      }),
    });
    expect(await check.verify(solution(ticket), '203.0.113.9')).toBe(false);
  });

  it('refuses tickets Tencent refuses or cannot read, and says when Tencent cannot be asked', async () => {
    const { fetchImpl, requests } = fakeFetch([
      json({ Response: { CaptchaCode: 9, CaptchaMsg: 'ticket reused' } }),
      json({ Response: { Error: { Code: 'InvalidParameterValue', Message: 'bad ticket' } } }),
      json({ Response: { Error: { Code: 'AuthFailure.SecretIdNotFound', Message: 'no such key' } } }),
    ]);
    const check = new TencentHumanCheck({ ...base, spent, fetchImpl });
    expect(await check.verify(solution('reused'), '203.0.113.9')).toBe(false);
    expect(await check.verify(solution('garbled'), '203.0.113.9')).toBe(false);
    await expect(check.verify(solution('t3'), '203.0.113.9')).rejects.toBeInstanceOf(HumanCheckUnavailable);
    for (const malformed of ['not json', '{"ticket":""}', '[]']) expect(await check.verify(malformed, '203.0.113.9')).toBe(false);
    expect(requests).toHaveLength(3);
  });
});

describe('ALTCHA', () => {
  it('passes a solved challenge once, before it expires by the server clock', async () => {
    let now = NOW;
    const check = new AltchaHumanCheck({ secret: 'jwt-secret', cost: 1, counterMax: 32, ttlSeconds: 600, spent, now: () => now });
    const solve = async () => {
      const challenge = await check.challenge();
      if (challenge.provider !== 'altcha') throw new Error('not altcha');
      const altcha = challenge.altcha as unknown as Parameters<typeof solveChallenge>[0]['challenge'];
      const solved = await solveChallenge({ challenge: altcha, deriveKey });
      return Buffer.from(JSON.stringify({ challenge: altcha, solution: solved })).toString('base64');
    };
    const first = await solve();
    expect(await check.verify(first)).toBe(true);
    expect(await check.verify(first)).toBe(false);

    const late = await solve();
    now = new Date(NOW.getTime() + 601 * 1000);
    expect(await check.verify(late)).toBe(false);

    // Another server secret signs other challenges.
    const other = new AltchaHumanCheck({ secret: 'other-secret', cost: 1, counterMax: 32, ttlSeconds: 600, spent, now: () => NOW });
    now = NOW;
    expect(await other.verify(await solve())).toBe(false);
  });

  it('forgets spent checks once they expired', async () => {
    const expiresAt = new Date('2030-01-01T00:00:00Z');
    expect(await spent.spend('prune-me', expiresAt)).toBe(true);
    expect(await spent.spend('prune-me', expiresAt)).toBe(false);
    await spent.prune(new Date('2029-12-31T23:59:59Z'));
    expect(await spent.spend('prune-me', expiresAt)).toBe(false);
    expect(await spent.prune(new Date('2030-01-01T00:00:01Z'))).toBeGreaterThanOrEqual(1);
    expect(await spent.spend('prune-me', expiresAt)).toBe(true);
  });
});
