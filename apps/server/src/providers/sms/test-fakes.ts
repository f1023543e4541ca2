/**
 * TEST DOUBLES (imported by tests only): local HTTP servers standing in for Aliyun's dysmsapi and Tencent
 * Cloud's SMS API, so that the official SDKs' own code signs and sends each request. A double checks the
 * request's signature the way the gateway documents it (ACS3-HMAC-SHA256, TC3-HMAC-SHA256; both checks are
 * pinned to the worked examples of the signature documentation in sms-providers.test.ts), records the
 * messages it accepted and answers with the documented response bodies.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { Agent, type ClientRequestArgs } from 'node:http';
import { connect, type Socket } from 'node:net';
import { type DoubleAnswer, LocalGatewayDouble, type ReceivedRequest } from '../payments/test-fakes.js';
import type { AliyunSmsOptions } from './aliyun.js';
import type { TencentSmsOptions } from './tencent.js';

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const headerOf = (request: ReceivedRequest, name: string) => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** RFC 3986 percent-encoding as Aliyun's V3 signature uses it (space as %20, `~` kept). */
const acsEncode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Aliyun's V3 request signature (ACS3-HMAC-SHA256): HMAC-SHA256 with the AccessKey secret over
 * `ACS3-HMAC-SHA256\n` + SHA-256 of the canonical request (method, path, sorted encoded query, the signed
 * headers as `name:value` lines, their names, and the hashed payload), in hex.
 */
export function acs3Signature(input: {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  signedHeaders: string[];
  hashedPayload: string;
  accessKeySecret: string;
}): string {
  const query = input.query
    .map(([key, value]) => [acsEncode(key), acsEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const names = [...input.signedHeaders].sort();
  const headers = names.map((name) => `${name}:${(input.headers[name] ?? '').trim()}\n`).join('');
  const canonical = [input.method, input.path, query, headers, names.join(';'), input.hashedPayload].join('\n');
  return createHmac('sha256', input.accessKeySecret).update(`ACS3-HMAC-SHA256\n${sha256Hex(canonical)}`).digest('hex');
}

/**
 * Tencent Cloud's API 3.0 signature (TC3-HMAC-SHA256): the key derived from `TC3<secret>` through the
 * UTC date, the service and `tc3_request` signs `TC3-HMAC-SHA256\n<timestamp>\n<scope>\n` + SHA-256 of
 * the canonical request, in hex.
 */
export function tc3Signature(input: { secretKey: string; timestamp: number; service: string; canonicalRequest: string }): string {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const hmac = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value, 'utf8').digest();
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const stringToSign = `TC3-HMAC-SHA256\n${input.timestamp}\n${date}/${input.service}/tc3_request\n${sha256Hex(input.canonicalRequest)}`;
  return createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
}

export interface AcceptedSms {
  phoneNumbers: string;
  signName: string;
  templateCode: string;
  templateParam: string;
}

/** Aliyun dysmsapi (SendSms, 2017-05-25). */
export class FakeAliyunSms extends LocalGatewayDouble {
  readonly accepted: AcceptedSms[] = [];
  readonly options: AliyunSmsOptions;

  constructor(overrides: Partial<AliyunSmsOptions> = {}) {
    super();
    this.options = {
      accessKeyId: 'LTAI5tTestDoubleKeyId',
      accessKeySecret: 'TestDoubleAccessKeySecret0000',
      signName: '算力港',
      templateCode: 'SMS_154950909',
      endpoint: this.origin.replace('http://', ''),
      protocol: 'http',
      ...overrides,
    };
  }

  protected answer(request: ReceivedRequest): DoubleAnswer {
    const json = (status: number, body: Record<string, unknown>): DoubleAnswer => ({
      status,
      headers: { 'Content-Type': 'application/json;charset=utf-8' },
      body: JSON.stringify({ RequestId: randomUUID().toUpperCase(), ...body }),
    });
    const match = /^ACS3-HMAC-SHA256 Credential=([^,]*),SignedHeaders=([^,]*),Signature=([0-9a-f]{64})$/.exec(headerOf(request, 'authorization'));
    const url = new URL(request.path, this.origin);
    const signedHeaders = match?.[2]?.split(';') ?? [];
    const expected =
      match &&
      acs3Signature({
        method: request.method,
        path: url.pathname,
        query: [...url.searchParams],
        headers: Object.fromEntries(signedHeaders.map((name) => [name, headerOf(request, name)])),
        signedHeaders,
        hashedPayload: headerOf(request, 'x-acs-content-sha256'),
        accessKeySecret: this.options.accessKeySecret,
      });
    if (
      !match ||
      match[1] !== this.options.accessKeyId ||
      !['host', 'x-acs-action', 'x-acs-content-sha256', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-version'].every((name) => signedHeaders.includes(name)) ||
      headerOf(request, 'x-acs-content-sha256') !== sha256Hex(request.body) ||
      match[3] !== expected
    ) {
      return json(400, { HostId: 'dysmsapi.aliyuncs.com', Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' });
    }
    if (headerOf(request, 'x-acs-action') !== 'SendSms' || headerOf(request, 'x-acs-version') !== '2017-05-25') {
      return json(404, { Code: 'InvalidAction.NotFound', Message: 'Specified api is not found, please check your url and method.' });
    }
    const params = new Map([...url.searchParams, ...new URLSearchParams(request.body)]);
    const sms: AcceptedSms = {
      phoneNumbers: params.get('PhoneNumbers') ?? '',
      signName: params.get('SignName') ?? '',
      templateCode: params.get('TemplateCode') ?? '',
      templateParam: params.get('TemplateParam') ?? '',
    };
    if (!/^1\d{10}$/.test(sms.phoneNumbers)) return json(200, { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' });
    this.accepted.push(sms);
    // SendSms 返回示例.
    return json(200, { Code: 'OK', Message: 'OK', BizId: '9006197469364984^0' });
  }
}

/** An HTTP agent whose every connection goes to the double, whatever host the URL names. */
export class AgentTo extends Agent {
  constructor(private readonly double: LocalGatewayDouble) {
    super();
  }

  override createConnection(_options: ClientRequestArgs): Socket {
    return connect(Number(new URL(this.double.origin).port), '127.0.0.1');
  }
}

/** Tencent Cloud SMS (SendSms, 2021-01-11). */
export class FakeTencentSms extends LocalGatewayDouble {
  readonly accepted: { phoneNumberSet: string[]; smsSdkAppId: string; signName: string; templateId: string; templateParamSet: string[]; region: string }[] = [];
  readonly options: TencentSmsOptions;

  constructor(overrides: Partial<TencentSmsOptions> = {}) {
    super();
    this.options = {
      secretId: 'AKIDTestDoubleSecretId0000000000',
      secretKey: 'TestDoubleSecretKey0000000000000',
      sdkAppId: '1400006666',
      signName: '算力港',
      templateId: '449739',
      transport: { protocol: 'http://', agent: new AgentTo(this) },
      ...overrides,
    };
  }

  protected answer(request: ReceivedRequest): DoubleAnswer {
    const requestId = randomUUID();
    const json = (response: Record<string, unknown>): DoubleAnswer => ({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ Response: { ...response, RequestId: requestId } }),
    });
    const refuse = (code: string, message: string) => json({ Error: { Code: code, Message: message } });
    const match = /^TC3-HMAC-SHA256 Credential=([^/]*)\/(\d{4}-\d{2}-\d{2})\/([^/]*)\/tc3_request, SignedHeaders=([^,]*), Signature=([0-9a-f]{64})$/.exec(
      headerOf(request, 'authorization'),
    );
    const timestamp = Number(headerOf(request, 'x-tc-timestamp'));
    const signedHeaders = match?.[4]?.split(';') ?? [];
    const canonicalHeaders = signedHeaders
      .map((name) => `${name}:${(name === 'host' ? headerOf(request, 'host').replace(/:\d+$/, '') : headerOf(request, name)).toLowerCase()}\n`)
      .join('');
    const url = new URL(request.path, 'http://sms.tencentcloudapi.com');
    const canonicalRequest = [request.method, url.pathname, url.search.slice(1), canonicalHeaders, signedHeaders.join(';'), sha256Hex(request.body)].join('\n');
    if (
      !match ||
      match[1] !== this.options.secretId ||
      match[3] !== 'sms' ||
      !signedHeaders.includes('host') ||
      !signedHeaders.includes('content-type') ||
      match[2] !== new Date(timestamp * 1000).toISOString().slice(0, 10) ||
      match[5] !== tc3Signature({ secretKey: this.options.secretKey, timestamp, service: 'sms', canonicalRequest })
    ) {
      return refuse('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
    }
    if (headerOf(request, 'x-tc-action') !== 'SendSms' || headerOf(request, 'x-tc-version') !== '2021-01-11') {
      return refuse('InvalidAction', 'The requested action does not exist.');
    }
    const body = JSON.parse(request.body) as { PhoneNumberSet?: string[]; SmsSdkAppId?: string; SignName?: string; TemplateId?: string; TemplateParamSet?: string[] };
    const phone = body.PhoneNumberSet?.[0] ?? '';
    this.accepted.push({
      phoneNumberSet: body.PhoneNumberSet ?? [],
      smsSdkAppId: body.SmsSdkAppId ?? '',
      signName: body.SignName ?? '',
      templateId: body.TemplateId ?? '',
      templateParamSet: body.TemplateParamSet ?? [],
      region: headerOf(request, 'x-tc-region'),
    });
    // SendSms 示例1 发送短信验证码 (输出示例).
    return json({
      SendStatusSet: [
        { SerialNo: '5000:1045710669157053657849499619', PhoneNumber: phone, Fee: 1, SessionContext: '', Code: 'Ok', Message: 'send success', IsoCode: 'CN' },
      ],
    });
  }
}
