import { describe, expect, it } from 'vitest';
import { AliyunSmsProvider, aliyunPercentEncode, aliyunRpcSignature } from './aliyun.js';
import { tc3Authorization, TencentSmsProvider } from './tencent.js';
import { SmsSendError } from './provider.js';

describe('Aliyun RPC signature', () => {
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

  it('sends SendSms with the code as template parameter and reports gateway refusals', async () => {
    const urls: string[] = [];
    const provider = new AliyunSmsProvider({
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      signName: '算力港',
      templateCode: 'SMS_1',
      fetchImpl: async (input) => {
        urls.push(String(input));
        return new Response(JSON.stringify({ Code: urls.length === 1 ? 'OK' : 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发流控' }));
      },
    });
    await provider.send({ telephone: '13800000000', type: 'login', code: '123456' });
    const query = new URL(urls[0] ?? '').searchParams;
    expect(query.get('Action')).toBe('SendSms');
    expect(query.get('PhoneNumbers')).toBe('13800000000');
    expect(query.get('TemplateParam')).toBe('{"code":"123456"}');
    const params = Object.fromEntries([...query.entries()].filter(([key]) => key !== 'Signature'));
    expect(query.get('Signature')).toBe(aliyunRpcSignature(params, 'secret'));
    await expect(provider.send({ telephone: '13800000000', type: 'login', code: '123456' })).rejects.toBeInstanceOf(SmsSendError);
  });
});

describe('Tencent Cloud TC3 signature', () => {
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

  it('posts SendSms with +86 numbers and surfaces errors', async () => {
    const bodies: string[] = [];
    const provider = new TencentSmsProvider({
      secretId: 'id',
      secretKey: 'key',
      sdkAppId: '1400000000',
      signName: '算力港',
      templateId: '100',
      fetchImpl: async (_input, init) => {
        bodies.push(String(init?.body));
        const ok = bodies.length === 1;
        return new Response(
          JSON.stringify(
            ok
              ? { Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success' }] } }
              : { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad' } } },
          ),
        );
      },
    });
    await provider.send({ telephone: '13800000000', type: 'register', code: '654321' });
    expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({ PhoneNumberSet: ['+8613800000000'], TemplateParamSet: ['654321'] });
    await expect(provider.send({ telephone: '13800000000', type: 'register', code: '654321' })).rejects.toThrow('SignatureFailure');
  });
});
