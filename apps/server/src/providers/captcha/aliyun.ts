import { randomUUID } from 'node:crypto';
import { aliyunPercentEncode, aliyunRpcSignature } from '../sms/aliyun.js';
import { HumanCheckUnavailable, type HumanCheck, type HumanCheckChallenge } from './provider.js';
import type { SpentHumanChecks } from './spent.js';

export interface AliyunCaptchaOptions {
  accessKeyId: string;
  accessKeySecret: string;
  sceneId: string;
  /** The identity prefix of the account (console 概览), which the browser script needs. */
  prefix: string;
  /** `cn` (Shanghai) or `sgp` (Singapore): the client region and the matching server endpoint. */
  region: 'cn' | 'sgp';
  spent: SpentHumanChecks;
  endpoint?: string;
  fetchImpl?: typeof fetch;
  now?: () => Date;
}

const ENDPOINTS = { cn: 'https://captcha.cn-shanghai.aliyuncs.com', sgp: 'https://captcha.ap-southeast-1.aliyuncs.com' } as const;
/** A verification parameter is single use at Aliyun too; this long it stays spent here. */
const SPENT_FOR_MS = 30 * 60 * 1000;

interface VerifyResponse {
  Success?: boolean;
  Code?: string;
  Message?: string;
  Result?: { VerifyResult?: boolean; VerifyCode?: string };
}

/** Refusals that are the operator's problem (keys, permissions, throttling), not a failed check. */
const OPERATOR_ERRORS = /AccessKey|Signature|Forbidden|NoPermission|Throttling|ServiceUnavailable|InternalError/i;

/** Aliyun Captcha 2.0: the browser returns CaptchaVerifyParam, checked with VerifyIntelligentCaptcha (2023-03-05). */
export class AliyunHumanCheck implements HumanCheck {
  readonly name = 'aliyun';

  constructor(private readonly options: AliyunCaptchaOptions) {}

  async challenge(): Promise<HumanCheckChallenge> {
    const { prefix, sceneId, region } = this.options;
    return { provider: 'aliyun', aliyun: { prefix, sceneId, region } };
  }

  /** The signed form body of VerifyIntelligentCaptcha (RPC signature 1.0 over POST). */
  buildRequestBody(captchaVerifyParam: string, now: Date, nonce: string): string {
    const params: Record<string, string> = {
      AccessKeyId: this.options.accessKeyId,
      Action: 'VerifyIntelligentCaptcha',
      CaptchaVerifyParam: captchaVerifyParam,
      Format: 'JSON',
      SceneId: this.options.sceneId,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: nonce,
      SignatureVersion: '1.0',
      Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2023-03-05',
    };
    const signature = aliyunRpcSignature(params, this.options.accessKeySecret, 'POST');
    return Object.entries({ ...params, Signature: signature })
      .map(([key, value]) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(value)}`)
      .join('&');
  }

  async verify(solution: string): Promise<boolean> {
    if (solution.trim() === '') return false;
    const now = (this.options.now ?? (() => new Date()))();
    const fetchImpl = this.options.fetchImpl ?? fetch;
    let response: Response;
    try {
      response = await fetchImpl(`${this.options.endpoint ?? ENDPOINTS[this.options.region]}/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: this.buildRequestBody(solution, now, randomUUID()),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new HumanCheckUnavailable(`阿里云验证码服务无法访问: ${(error as Error).message}`);
    }
    const body = (await response.json().catch(() => ({}))) as VerifyResponse;
    if (response.status >= 500 || OPERATOR_ERRORS.test(body.Code ?? '')) {
      throw new HumanCheckUnavailable(`阿里云验证码校验失败: ${body.Code ?? response.status} ${body.Message ?? ''}`.trim());
    }
    if (!response.ok || body.Success !== true || body.Result?.VerifyResult !== true) return false;
    return this.options.spent.spend(`aliyun:${solution}`, new Date(now.getTime() + SPENT_FOR_MS));
  }
}
