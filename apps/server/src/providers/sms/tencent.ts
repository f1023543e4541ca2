import { createHash, createHmac } from 'node:crypto';
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
  region?: string;
  host?: string;
  fetchImpl?: typeof fetch;
}

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

/** Tencent Cloud SMS (SendSms, version 2021-01-11). */
export class TencentSmsProvider implements SmsProvider {
  readonly name = 'tencent';

  constructor(private readonly options: TencentSmsOptions) {}

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
    const host = this.options.host ?? 'sms.tencentcloudapi.com';
    const payload = JSON.stringify({
      PhoneNumberSet: [`+86${telephone}`],
      SmsSdkAppId: this.options.sdkAppId,
      SignName: this.options.signName,
      TemplateId: templateId,
      TemplateParamSet: templateParams,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const authorization = tc3Authorization({
      secretId: this.options.secretId,
      secretKey: this.options.secretKey,
      host,
      service: 'sms',
      action: 'SendSms',
      payload,
      timestamp,
    });
    const fetchImpl = this.options.fetchImpl ?? fetch;
    const response = await fetchImpl(`https://${host}/`, {
      method: 'POST',
      headers: {
        Authorization: authorization,
        'Content-Type': 'application/json; charset=utf-8',
        Host: host,
        'X-TC-Action': 'SendSms',
        'X-TC-Timestamp': String(timestamp),
        'X-TC-Version': '2021-01-11',
        'X-TC-Region': this.options.region ?? 'ap-guangzhou',
      },
      body: payload,
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json().catch(() => ({}))) as {
      Response?: { Error?: { Code: string; Message: string }; SendStatusSet?: { Code: string; Message: string }[] };
    };
    const error = body.Response?.Error;
    const status = body.Response?.SendStatusSet?.[0];
    if (!response.ok || error || status?.Code !== 'Ok') {
      const reason = error ? `${error.Code} ${error.Message}` : status ? `${status.Code} ${status.Message}` : response.status;
      throw new SmsSendError(`腾讯云短信发送失败: ${reason}`);
    }
  }
}
