import { createHmac, randomUUID } from 'node:crypto';
import type { SmsMessage, SmsProvider } from './provider.js';
import { noticeParamMap, noticeTemplateVariable, type NoticeTemplateIds, type SmsNotice } from './notices.js';
import { SmsSendError } from './provider.js';

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** Template codes of the notices (ALIYUN_SMS_TEMPLATE_*); a notice without one is not sent. */
  noticeTemplates?: NoticeTemplateIds;
  endpoint?: string;
  fetchImpl?: typeof fetch;
}

/** Aliyun's percent-encoding for RPC signatures (RFC 3986, with space as %20). */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/\+/g, '%20')
    .replace(/\*/g, '%2A')
    .replace(/%7E/g, '~')
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Signature version 1.0 of Aliyun's RPC APIs: HMAC-SHA1 over the sorted, encoded query. */
export function aliyunRpcSignature(params: Record<string, string>, accessKeySecret: string, method = 'GET'): string {
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(params[key] ?? '')}`)
    .join('&');
  const stringToSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(canonical)}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign).digest('base64');
}

/** Aliyun SMS (dysmsapi SendSms, version 2017-05-25). */
export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun';

  constructor(private readonly options: AliyunSmsOptions) {}

  buildRequestUrl(message: SmsMessage, now: Date, nonce: string): string {
    return this.sendSmsUrl({ telephone: message.telephone, templateCode: this.options.templateCode, templateParam: { code: message.code } }, now, nonce);
  }

  private sendSmsUrl(request: { telephone: string; templateCode: string; templateParam: Record<string, string> }, now: Date, nonce: string): string {
    const params: Record<string, string> = {
      AccessKeyId: this.options.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: request.telephone,
      RegionId: 'cn-hangzhou',
      SignName: this.options.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: nonce,
      SignatureVersion: '1.0',
      TemplateCode: request.templateCode,
      TemplateParam: JSON.stringify(request.templateParam),
      Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    const signature = aliyunRpcSignature(params, this.options.accessKeySecret);
    const query = Object.entries({ Signature: signature, ...params })
      .map(([key, value]) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(value)}`)
      .join('&');
    return `${this.options.endpoint ?? 'https://dysmsapi.aliyuncs.com'}/?${query}`;
  }

  async send(message: SmsMessage): Promise<void> {
    await this.request(this.buildRequestUrl(message, new Date(), randomUUID()));
  }

  /** SendSms with the notice's template code and its named variables. */
  async sendNotice(notice: SmsNotice): Promise<void> {
    const templateCode = this.options.noticeTemplates?.[notice.kind];
    if (!templateCode) throw new SmsSendError(`阿里云短信未配置通知模板 ${noticeTemplateVariable('ALIYUN', notice.kind)}`);
    await this.request(this.sendSmsUrl({ telephone: notice.telephone, templateCode, templateParam: noticeParamMap(notice) }, new Date(), randomUUID()));
  }

  private async request(url: string): Promise<void> {
    const fetchImpl = this.options.fetchImpl ?? fetch;
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
    const body = (await response.json().catch(() => ({}))) as { Code?: string; Message?: string };
    if (!response.ok || body.Code !== 'OK') {
      throw new SmsSendError(`阿里云短信发送失败: ${body.Code ?? response.status} ${body.Message ?? ''}`.trim());
    }
  }
}
