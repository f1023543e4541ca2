import type { HumanCheckConfig } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { AliyunHumanCheck } from './aliyun.js';
import { AltchaHumanCheck } from './altcha.js';
import type { HumanCheck } from './provider.js';
import { SpentHumanChecks } from './spent.js';
import { TencentHumanCheck } from './tencent.js';

/** How long an ALTCHA challenge can be solved and then used. */
export const ALTCHA_CHALLENGE_TTL_SECONDS = 10 * 60;

export function createHumanCheck(
  config: { humanCheck: HumanCheckConfig; jwtSecret: string },
  executor: Executor,
  now: () => Date,
): HumanCheck {
  const spent = new SpentHumanChecks(executor);
  const { humanCheck } = config;
  switch (humanCheck.provider) {
    case 'altcha':
      return new AltchaHumanCheck({
        secret: config.jwtSecret,
        cost: humanCheck.altcha.cost,
        counterMax: humanCheck.altcha.counterMax,
        ttlSeconds: ALTCHA_CHALLENGE_TTL_SECONDS,
        spent,
        now,
      });
    case 'aliyun':
      if (!humanCheck.aliyun) throw new Error('aliyun captcha is not configured');
      return new AliyunHumanCheck({ ...humanCheck.aliyun, spent });
    case 'tencent':
      if (!humanCheck.tencent) throw new Error('tencent captcha is not configured');
      return new TencentHumanCheck({ ...humanCheck.tencent, spent });
  }
}

/**
 * Content-Security-Policy sources the vendor's browser script needs (script, its requests, images,
 * frames); the self-hosted ALTCHA needs none beyond 'self'.
 */
export function humanCheckContentSources(provider: HumanCheckConfig['provider']): {
  scriptSrc: string[];
  connectSrc: string[];
  imgSrc: string[];
  frameSrc: string[];
} {
  switch (provider) {
    case 'aliyun':
      return {
        scriptSrc: ['https://o.alicdn.com', 'https://g.alicdn.com'],
        connectSrc: ['https://*.aliyuncs.com', 'https://*.alicdn.com'],
        imgSrc: ['https://*.alicdn.com', 'https://*.aliyuncs.com'],
        frameSrc: [],
      };
    case 'tencent':
      return {
        scriptSrc: ['https://turing.captcha.qcloud.com', 'https://turing.captcha.gtimg.com'],
        connectSrc: ['https://turing.captcha.qcloud.com'],
        imgSrc: ['https://turing.captcha.qcloud.com', 'https://turing.captcha.gtimg.com'],
        frameSrc: ['https://turing.captcha.qcloud.com'],
      };
    case 'altcha':
      return { scriptSrc: [], connectSrc: [], imgSrc: [], frameSrc: [] };
  }
}

export { HumanCheckUnavailable, type HumanCheck, type HumanCheckChallenge } from './provider.js';
export { SpentHumanChecks } from './spent.js';
