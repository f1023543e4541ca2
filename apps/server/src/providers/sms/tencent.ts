import { createHash, createHmac } from 'node:crypto';
import type { Agent } from 'node:http';
import { createRequire } from 'node:module';
import type * as TencentSms from 'tencentcloud-sdk-nodejs-sms';
import type { SmsMessage, SmsProvider } from './provider.js';
import { SmsSendError } from './provider.js';
import { noticeParamList, noticeTemplateVariable, type NoticeTemplateIds, type SmsNotice } from './notices.js';

export interface TencentSmsOptions {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
  /** Template ids of the notices (TENCENT_SMS_TEMPLATE_*); a notice without one is not sent. */
  noticeTemplates?: NoticeTemplateIds;
  /** Default ap-guangzhou. */
  region?: string;
  /** Default sms.tencentcloudapi.com. The SDK derives the signed service name from its first label. */
  host?: string;
  /** Tests only: plain HTTP through an agent that connects to a local test double instead of `host`. */
  transport?: { protocol: 'http://'; agent: Agent };
}

// The TC3 signature below is what the human-check provider (captcha/tencent.ts) signs its requests with;
// SMS goes through the SDK.

interface Tc3Request {
  secretId: string;
  secretKey: string;
  host: string;
  service: string;
  action: string;
  payload: string;
  timestamp: number;
}

const hmac = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value).digest();
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** Tencent Cloud API 3.0 signature (TC3-HMAC-SHA256) for a JSON POST; returns the Authorization header. */
export function tc3Authorization(request: Tc3Request): string {
  const contentType = 'application/json; charset=utf-8';
  const signedHeaders = 'content-type;host;x-tc-action';
  const canonicalHeaders = `content-type:${contentType}\nhost:${request.host}\nx-tc-action:${request.action.toLowerCase()}\n`;
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(request.payload)].join('\n');
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  const scope = `${date}/${request.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(request.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const secretDate = hmac(`TC3${request.secretKey}`, date);
  const secretService = hmac(secretDate, request.service);
  const secretSigning = hmac(secretService, 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${request.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/** Tencent Cloud SMS (SendSms, version 2021-01-11) through the official SDK, which signs each request (TC3-HMAC-SHA256). */
export class TencentSmsProvider implements SmsProvider {
  readonly name = 'tencent';
  private readonly client: InstanceType<typeof TencentSms.sms.v20210111.Client>;

  constructor(private readonly options: TencentSmsOptions) {
    // Loaded here, when a Tencent provider is built: a process on the console provider never pays the SDK's start-up time.
    const { sms } = createRequire(import.meta.url)('tencentcloud-sdk-nodejs-sms') as typeof TencentSms;
    this.client = new sms.v20210111.Client({
      credential: { secretId: options.secretId, secretKey: options.secretKey },
      region: options.region ?? 'ap-guangzhou',
      profile: {
        httpProfile: {
          endpoint: options.host ?? 'sms.tencentcloudapi.com',
          reqTimeout: 10,
          ...(options.transport ? { protocol: options.transport.protocol, agent: options.transport.agent } : {}),
        },
      },
    });
  }

  async send(message: SmsMessage): Promise<void> {
    await this.sendSms(message.telephone, this.options.templateId, [message.code]);
  }

  /** SendSms with the notice's template id and its variables in the template's order. */
  async sendNotice(notice: SmsNotice): Promise<void> {
    const templateId = this.options.noticeTemplates?.[notice.kind];
    if (!templateId) throw new SmsSendError(`腾讯云短信未配置通知模板 ${noticeTemplateVariable('TENCENT', notice.kind)}`);
    await this.sendSms(notice.telephone, templateId, noticeParamList(notice));
  }

  private async sendSms(telephone: string, templateId: string, templateParams: string[]): Promise<void> {
    let statuses: { Code?: string; Message?: string }[] | undefined;
    try {
      const answer = await this.client.SendSms({
        PhoneNumberSet: [`+86${telephone}`],
        SmsSdkAppId: this.options.sdkAppId,
        SignName: this.options.signName,
        TemplateId: templateId,
        TemplateParamSet: templateParams,
      });
      statuses = answer.SendStatusSet;
    } catch (error) {
      const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
      const message = error instanceof Error ? error.message : String(error);
      throw new SmsSendError(`腾讯云短信发送失败: ${typeof code === 'string' && code ? `${code} ${message}` : message}`);
    }
    // The request can succeed while the number is refused (daily limit, wrong format): each number has its own status.
    const status = statuses?.[0];
    if (status?.Code !== 'Ok') throw new SmsSendError(`腾讯云短信发送失败: ${status ? `${status.Code ?? ''} ${status.Message ?? ''}`.trim() : '应答缺少发送状态'}`);
  }
}
