import { describe, expect, it } from 'vitest';
import { call, createTestApp } from '../../../test/helpers.js';

describe('console SMS outbox route', () => {
  it('does not exist with a real SMS provider', async () => {
    const t = await createTestApp({
      env: {
        SMS_PROVIDER: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: 'id',
        ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
        ALIYUN_SMS_SIGN_NAME: '算力港',
        ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
      },
    });
    try {
      const response = await call(t.app, { method: 'GET', url: '/api/dev/sms?telephone=13800138000' });
      expect(response.status).toBe(404);
      expect(response.body.rspmsg).toBe('服务器资源不存在');
    } finally {
      await t.close();
    }
  });
});
