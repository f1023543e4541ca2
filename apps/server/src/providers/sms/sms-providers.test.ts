/**
 * The SMS gateways through their official SDKs, against local test doubles of dysmsapi and Tencent Cloud
 * SMS (sms/test-fakes.ts): the SDK signs and sends each request over HTTP, the double checks the signature
 * as the gateway documents it, and answers with the documented response bodies (SendSms 返回示例).
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { AliyunSmsProvider, aliyunPercentEncode, aliyunRpcSignature } from './aliyun.js';
import { tc3Authorization, TencentSmsProvider } from './tencent.js';
import { SmsSendError } from './provider.js';
import { acs3Signature, FakeAliyunSms, FakeTencentSms, tc3Signature } from './test-fakes.js';
import type { LocalGatewayDouble } from '../payments/test-fakes.js';

const doubles: LocalGatewayDouble[] = [];
const track = <T extends LocalGatewayDouble>(double: T) => {
  doubles.push(double);
  return double;
};
afterAll(async () => {
  await Promise.all(doubles.map((double) => double.close()));
});

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('the doubles check signatures exactly as the signature documentation computes them', () => {
  it('ACS3-HMAC-SHA256: the two worked examples of Aliyun\'s "V3版本请求体&签名机制"', () => {
    // RunInstances in cn-shanghai, AccessKey secret YourAccessKeySecret, empty body.
    const example = (date: string, nonce: string) =>
      acs3Signature({
        method: 'POST',
        path: '/',
        query: [
          ['ImageId', 'win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd'],
          ['RegionId', 'cn-shanghai'],
        ],
        headers: {
          host: 'ecs.cn-shanghai.aliyuncs.com',
          'x-acs-action': 'RunInstances',
          'x-acs-content-sha256': EMPTY_SHA256,
          'x-acs-date': date,
          'x-acs-signature-nonce': nonce,
          'x-acs-version': '2014-05-26',
        },
        signedHeaders: ['host', 'x-acs-action', 'x-acs-content-sha256', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-version'],
        hashedPayload: EMPTY_SHA256,
        accessKeySecret: 'YourAccessKeySecret',
      });
    expect(example('2023-10-26T10:22:32Z', '3156853299f313e23d1673dc12e1703d')).toBe('06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0');
    expect(example('2023-10-26T09:01:01Z', 'd410180a5abf7fe235dd9b74aca91fc0')).toBe('e521358f7776c97df52e6b2891a8bc73026794a071b50c3323388c4e0df64804');
  });

  it('TC3-HMAC-SHA256: the worked example of Tencent Cloud\'s "签名方法 v3" (DescribeInstances, 1551113065)', () => {
    const payload = '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}';
    const canonicalRequest = [
      'POST',
      '/',
      '',
      'content-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n',
      'content-type;host',
      '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
    ].join('\n');
    expect(canonicalRequest.endsWith(createHash('sha256').update(payload).digest('hex'))).toBe(true);
    expect(tc3Signature({ secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE', timestamp: 1551113065, service: 'cvm', canonicalRequest })).toBe(
      '72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });
});

describe('AliyunSmsProvider (dysmsapi SDK)', () => {
  it('sends SendSms with the code as template parameter, signed so that the gateway accepts it', async () => {
    const fake = track(new FakeAliyunSms());
    const provider = new AliyunSmsProvider(fake.options);
    await provider.send({ telephone: '13800000000', type: 'login', code: '123456' });
    expect(fake.accepted).toEqual([{ phoneNumbers: '13800000000', signName: '算力港', templateCode: 'SMS_154950909', templateParam: '{"code":"123456"}' }]);
  });

  it('is refused (SignatureDoesNotMatch) when signing with another secret, and reports it as SmsSendError', async () => {
    const fake = track(new FakeAliyunSms());
    const provider = new AliyunSmsProvider({ ...fake.options, accessKeySecret: 'another-secret' });
    const error = await provider.send({ telephone: '13800000000', type: 'login', code: '123456' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect((error as Error).message).toMatch(/^阿里云短信发送失败: .*SignatureDoesNotMatch/);
    expect(fake.accepted).toHaveLength(0);
  });

  it('reports a refusal answered with HTTP 200 (flow control, an illegal number) as SmsSendError with the gateway\'s code', async () => {
    const fake = track(new FakeAliyunSms());
    const provider = new AliyunSmsProvider(fake.options);
    await expect(provider.send({ telephone: '12', type: 'login', code: '1' })).rejects.toThrow('阿里云短信发送失败: isv.MOBILE_NUMBER_ILLEGAL 非法手机号');
    // The documentation's error example.
    fake.script = () => ({
      status: 200,
      body: JSON.stringify({ Message: '触发分钟级流控Permits:1', RequestId: '2184201F-BFB3-446B-B1F2-C746B7BF0657', Code: 'isv.BUSINESS_LIMIT_CONTROL' }),
    });
    await expect(provider.send({ telephone: '13800000000', type: 'login', code: '123456' })).rejects.toThrow(
      '阿里云短信发送失败: isv.BUSINESS_LIMIT_CONTROL 触发分钟级流控Permits:1',
    );
  });

  it('reports an unreachable gateway as SmsSendError', async () => {
    const fake = track(new FakeAliyunSms());
    fake.down = true;
    await expect(new AliyunSmsProvider(fake.options).send({ telephone: '13800000000', type: 'login', code: '1' })).rejects.toBeInstanceOf(SmsSendError);
  });

  it('sends a notice through its template with named variables, and refuses one without a template', async () => {
    const fake = track(new FakeAliyunSms());
    const provider = new AliyunSmsProvider({ ...fake.options, noticeTemplates: { arrears: 'SMS_ARREARS' } });
    await provider.sendNotice({ telephone: '13900000000', kind: 'arrears', params: { instances: 'gpu-1等2台', balance: '-1.20' } });
    expect(fake.accepted).toEqual([{ phoneNumbers: '13900000000', signName: '算力港', templateCode: 'SMS_ARREARS', templateParam: '{"instances":"gpu-1等2台","balance":"-1.20"}' }]);
    await expect(provider.sendNotice({ telephone: '13900000000', kind: 'balance_low', params: { balance: '1.00', threshold: '10.00' } })).rejects.toThrow(
      '阿里云短信未配置通知模板 ALIYUN_SMS_TEMPLATE_BALANCE_LOW',
    );
  });
});

describe('TencentSmsProvider (tencentcloud-sdk-nodejs-sms)', () => {
  it('posts SendSms with a +86 number, signed so that the gateway accepts it', async () => {
    const fake = track(new FakeTencentSms());
    await new TencentSmsProvider(fake.options).send({ telephone: '13800000000', type: 'register', code: '654321' });
    expect(fake.accepted).toEqual([
      { phoneNumberSet: ['+8613800000000'], smsSdkAppId: '1400006666', signName: '算力港', templateId: '449739', templateParamSet: ['654321'], region: 'ap-guangzhou' },
    ]);
  });

  it('is refused (AuthFailure.SignatureFailure) when signing with another key, and reports it as SmsSendError', async () => {
    const fake = track(new FakeTencentSms());
    const provider = new TencentSmsProvider({ ...fake.options, secretKey: 'another-key' });
    await expect(provider.send({ telephone: '13800000000', type: 'register', code: '654321' })).rejects.toThrow(
      /^腾讯云短信发送失败: AuthFailure\.SignatureFailure /,
    );
    expect(fake.accepted).toHaveLength(0);
  });

  it('reports a number the gateway refused inside a successful answer, and an unreachable gateway, as SmsSendError', async () => {
    const fake = track(new FakeTencentSms());
    const provider = new TencentSmsProvider(fake.options);
    fake.script = () => ({
      status: 200,
      body: JSON.stringify({
        Response: {
          SendStatusSet: [{ SerialNo: '', PhoneNumber: '+8613800000000', Fee: 0, SessionContext: '', Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: '单个手机号日下发短信条数超过设定的上限', IsoCode: 'CN' }],
          RequestId: 'a0aabda6-cf91-4f3e-a81f-9198114a2279',
        },
      }),
    });
    await expect(provider.send({ telephone: '13800000000', type: 'register', code: '1' })).rejects.toThrow(
      '腾讯云短信发送失败: LimitExceeded.PhoneNumberDailyLimit 单个手机号日下发短信条数超过设定的上限',
    );
    fake.script = undefined;
    fake.down = true;
    await expect(provider.send({ telephone: '13800000000', type: 'register', code: '1' })).rejects.toBeInstanceOf(SmsSendError);
  });

  it('sends a notice with its variables in the template\'s order, and refuses one without a template', async () => {
    const fake = track(new FakeTencentSms());
    const provider = new TencentSmsProvider({ ...fake.options, noticeTemplates: { release_reminder: '100200' } });
    await provider.sendNotice({ telephone: '13900000000', kind: 'release_reminder', params: { instances: 'gpu-1', releaseAt: '6月1日 10:00' } });
    expect(fake.accepted[0]).toMatchObject({ templateId: '100200', templateParamSet: ['gpu-1', '6月1日 10:00'] });
    await expect(provider.sendNotice({ telephone: '13900000000', kind: 'stock_alert', params: { zone: '北京一区', gpu: 'RTX 4090 2卡' } })).rejects.toThrow(
      '腾讯云短信未配置通知模板 TENCENT_SMS_TEMPLATE_STOCK_ALERT',
    );
  });
});

// The human-check providers (captcha/) still sign their own requests with these two.
describe('Aliyun RPC signature (captcha)', () => {
  it('matches the worked example of the signature documentation', () => {
    // Example from Aliyun's "RPC 机制的签名" documentation (DescribeRegions with AccessKeySecret testsecret).
    const signature = aliyunRpcSignature(
      {
        AccessKeyId: 'testid',
        Action: 'DescribeRegions',
        Format: 'XML',
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
        SignatureVersion: '1.0',
        Timestamp: '2016-02-23T12:46:24Z',
        Version: '2014-05-26',
      },
      'testsecret',
    );
    expect(signature).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  it('percent-encodes the way the gateway expects', () => {
    expect(aliyunPercentEncode("a b*c~d!'()")).toBe('a%20b%2Ac~d%21%27%28%29');
    expect(aliyunPercentEncode('{"code":"1"}')).toBe('%7B%22code%22%3A%221%22%7D');
  });
});

describe('Tencent Cloud TC3 signature (captcha)', () => {
  it('builds the documented Authorization header layout and changes with every signed input', () => {
    const base = {
      secretId: 'AKIDEXAMPLE',
      secretKey: 'secret',
      host: 'sms.tencentcloudapi.com',
      service: 'sms',
      action: 'SendSms',
      payload: '{"a":1}',
      timestamp: 1_700_000_000,
    };
    const header = tc3Authorization(base);
    expect(header).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKIDEXAMPLE\/2023-11-14\/sms\/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=[0-9a-f]{64}$/,
    );
    expect(tc3Authorization(base)).toBe(header);
    expect(tc3Authorization({ ...base, payload: '{"a":2}' })).not.toBe(header);
    expect(tc3Authorization({ ...base, secretKey: 'other' })).not.toBe(header);
    expect(tc3Authorization({ ...base, timestamp: base.timestamp + 1 })).not.toBe(header);
  });
});
