import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as OpenApiCore from '@alicloud/openapi-core';
import type * as Dysmsapi from '@alicloud/dysmsapi20170525';
import type { SmsMessage, SmsProvider } from './provider.js';
import { noticeParamMap, noticeTemplateVariable, type NoticeTemplateIds, type SmsNotice } from './notices.js';
import { SmsSendError } from './provider.js';

/**
 * The SDK, loaded when the first Aliyun provider is built (a process on the console provider never pays
 * its start-up time). Required rather than imported: the client is the package's CommonJS
 * `exports.default`, which Node's ESM loader and vitest resolve differently for a default import.
 */
function aliyunSdk() {
  const require = createRequire(import.meta.url);
  return {
    dysmsapi: require('@alicloud/dysmsapi20170525') as typeof Dysmsapi,
    openApi: require('@alicloud/openapi-core') as typeof OpenApiCore,
  };
}

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** Template codes of the notices (ALIYUN_SMS_TEMPLATE_*); a notice without one is not sent. */
  noticeTemplates?: NoticeTemplateIds;
  /** Host (and port) of the SMS API; default dysmsapi.aliyuncs.com. */
  endpoint?: string;
  /** Default https; tests speak plain HTTP to a local test double. */
  protocol?: 'https' | 'http';
}

// The RPC signature (version 1.0) below is what the human-check provider (captcha/aliyun.ts) signs its
// requests with; SMS goes through the SDK.

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

/** What the SDK rejects with: a refusal carries the API's error code. */
const failureOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
};

/** Aliyun SMS (dysmsapi SendSms, version 2017-05-25) through the official SDK, which signs each request (ACS3-HMAC-SHA256). */
export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun';
  private readonly sdk = aliyunSdk();
  private readonly client: InstanceType<typeof Dysmsapi.default>;

  constructor(private readonly options: AliyunSmsOptions) {
    this.client = new this.sdk.dysmsapi.default(
      new this.sdk.openApi.$OpenApiUtil.Config({
        accessKeyId: options.accessKeyId,
        accessKeySecret: options.accessKeySecret,
        endpoint: options.endpoint ?? 'dysmsapi.aliyuncs.com',
        protocol: options.protocol ?? 'https',
        connectTimeout: 5_000,
        readTimeout: 10_000,
      }),
    );
  }

  async send(message: SmsMessage): Promise<void> {
    await this.sendSms(message.telephone, this.options.templateCode, { code: message.code });
  }

  /** SendSms with the notice's template code and its named variables. */
  async sendNotice(notice: SmsNotice): Promise<void> {
    const templateCode = this.options.noticeTemplates?.[notice.kind];
    if (!templateCode) throw new SmsSendError(`阿里云短信未配置通知模板 ${noticeTemplateVariable('ALIYUN', notice.kind)}`);
    await this.sendSms(notice.telephone, templateCode, noticeParamMap(notice));
  }

  private async sendSms(telephone: string, templateCode: string, templateParam: Record<string, string>): Promise<void> {
    const request = new this.sdk.dysmsapi.SendSmsRequest({
      phoneNumbers: telephone,
      signName: this.options.signName,
      templateCode,
      templateParam: JSON.stringify(templateParam),
    });
    let answer: { code?: string; message?: string } | undefined;
    try {
      answer = (await this.client.sendSms(request)).body;
    } catch (error) {
      throw new SmsSendError(`阿里云短信发送失败: ${failureOf(error)}`);
    }
    // A refusal of the message itself (flow control, a template that does not match) still answers HTTP 200.
    if (answer?.code !== 'OK') throw new SmsSendError(`阿里云短信发送失败: ${answer?.code ?? ''} ${answer?.message ?? ''}`.trim());
  }
}
