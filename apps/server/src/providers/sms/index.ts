import type { Config } from '../../config.js';
import { AliyunSmsProvider } from './aliyun.js';
import { ConsoleSmsProvider } from './console.js';
import type { SmsProvider } from './provider.js';
import { TencentSmsProvider } from './tencent.js';

export function createSmsProvider(config: Config, now: () => Date): SmsProvider {
  switch (config.smsProvider) {
    case 'aliyun':
      if (!config.aliyunSms) throw new Error('aliyun SMS is not configured');
      return new AliyunSmsProvider(config.aliyunSms);
    case 'tencent':
      if (!config.tencentSms) throw new Error('tencent SMS is not configured');
      return new TencentSmsProvider(config.tencentSms);
    case 'console':
      return new ConsoleSmsProvider(now);
  }
}
