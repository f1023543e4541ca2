import { z } from 'zod';
import { tc3Authorization } from '../sms/tencent.js';
import { HumanCheckUnavailable, type HumanCheck, type HumanCheckChallenge } from './provider.js';
import type { SpentHumanChecks } from './spent.js';

export interface TencentCaptchaOptions {
  secretId: string;
  secretKey: string;
  captchaAppId: number;
  appSecretKey: string;
  spent: SpentHumanChecks;
  host?: string;
  fetchImpl?: typeof fetch;
  now?: () => Date;
}

/** What the console sends for Tencent: the ticket and random string of the TencentCaptcha callback. */
const solutionSchema = z.object({ ticket: z.string().min(1), randstr: z.string().min(1) });
/** Tickets live 5 minutes at Tencent; this long they stay spent here. */
const SPENT_FOR_MS = 30 * 60 * 1000;

interface DescribeCaptchaResultResponse {
  Response?: { CaptchaCode?: number; CaptchaMsg?: string; Error?: { Code: string; Message: string } };
}

function parseSolution(solution: string): z.infer<typeof solutionSchema> | null {
  try {
    const parsed = solutionSchema.safeParse(JSON.parse(solution));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Tencent Cloud CAPTCHA: the ticket is checked with DescribeCaptchaResult (2019-07-22, TC3 signed). */
export class TencentHumanCheck implements HumanCheck {
  readonly name = 'tencent';

  constructor(private readonly options: TencentCaptchaOptions) {}

  async challenge(): Promise<HumanCheckChallenge> {
    return { provider: 'tencent', tencent: { captchaAppId: String(this.options.captchaAppId) } };
  }

  async verify(solution: string, clientAddress: string): Promise<boolean> {
    const parsed = parseSolution(solution);
    if (!parsed) return false;
    const host = this.options.host ?? 'captcha.tencentcloudapi.com';
    const now = (this.options.now ?? (() => new Date()))();
    const timestamp = Math.floor(now.getTime() / 1000);
    const payload = JSON.stringify({
      CaptchaType: 9,
      Ticket: parsed.ticket,
      UserIp: clientAddress,
      Randstr: parsed.randstr,
      CaptchaAppId: this.options.captchaAppId,
      AppSecretKey: this.options.appSecretKey,
    });
    const authorization = tc3Authorization({
      secretId: this.options.secretId,
      secretKey: this.options.secretKey,
      host,
      service: 'captcha',
      action: 'DescribeCaptchaResult',
      payload,
      timestamp,
    });
    const fetchImpl = this.options.fetchImpl ?? fetch;
    let response: Response;
    try {
      response = await fetchImpl(`https://${host}/`, {
        method: 'POST',
        headers: {
          Authorization: authorization,
          'Content-Type': 'application/json; charset=utf-8',
          Host: host,
          'X-TC-Action': 'DescribeCaptchaResult',
          'X-TC-Timestamp': String(timestamp),
          'X-TC-Version': '2019-07-22',
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new HumanCheckUnavailable(`腾讯云验证码服务无法访问: ${(error as Error).message}`);
    }
    const body = (await response.json().catch(() => ({}))) as DescribeCaptchaResultResponse;
    const error = body.Response?.Error;
    // A ticket the API cannot even read was made up by the client; anything else is the operator's problem.
    if (error && /^(InvalidParameter|MissingParameter)/.test(error.Code)) return false;
    if (!response.ok || error) {
      throw new HumanCheckUnavailable(`腾讯云验证码校验失败: ${error ? `${error.Code} ${error.Message}` : response.status}`);
    }
    if (body.Response?.CaptchaCode !== 1) return false;
    return this.options.spent.spend(`tencent:${parsed.ticket}`, new Date(now.getTime() + SPENT_FOR_MS));
  }
}
