import { describe, expect, it } from 'vitest';
import { ConfigError, fastifyTrustProxy, loadConfig, parseTrustProxy } from './config.js';

describe('config', () => {
  it('defaults to the embedded database, console SMS and sandbox payments outside production', () => {
    const config = loadConfig({ JWT_SECRET: 'x'.repeat(40) });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smsProvider).toBe('console');
    expect(config.paymentProviders).toEqual(['sandbox']);
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('refuses dev providers and missing secrets in production, naming each problem', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'console', PAYMENT_PROVIDERS: 'sandbox' })).toThrowError(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'console', PAYMENT_PROVIDERS: 'sandbox' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('JWT_SECRET');
      expect(message).toContain('SMS_PROVIDER=console');
      expect(message).toContain('PAYMENT_PROVIDERS=sandbox');
      expect(message).toContain('PUBLIC_URL');
    }
  });

  it('refuses an unknown payment provider and a bad port', () => {
    expect(() => loadConfig({ JWT_SECRET: 'x', PAYMENT_PROVIDERS: 'paypal' })).toThrow('paypal');
    expect(() => loadConfig({ JWT_SECRET: 'x', PORT: 'abc' })).toThrow('PORT');
  });

  it('queries Prometheus only when PROMETHEUS_URL is an http(s) address', () => {
    expect(loadConfig({ JWT_SECRET: 'x' }).prometheusUrl).toBeUndefined();
    expect(loadConfig({ JWT_SECRET: 'x', PROMETHEUS_URL: '  ' }).prometheusUrl).toBeUndefined();
    expect(loadConfig({ JWT_SECRET: 'x', PROMETHEUS_URL: 'http://prometheus:9090/' }).prometheusUrl).toBe('http://prometheus:9090');
    expect(loadConfig({ JWT_SECRET: 'x', PROMETHEUS_URL: 'https://u:p@metrics.example.com/prometheus' }).prometheusUrl).toBe('https://u:p@metrics.example.com/prometheus');
    for (const bad of ['prometheus:9090', 'ftp://prometheus', 'http://prometheus:9090/?x=1', 'not a url']) {
      expect(() => loadConfig({ JWT_SECRET: 'x', PROMETHEUS_URL: bad }), bad).toThrow('PROMETHEUS_URL 应为 Prometheus 的 http(s) 地址');
    }
  });

  it('trusts no proxy by default, and a hop count, addresses/CIDRs or everyone only when told', () => {
    expect(loadConfig({ JWT_SECRET: 'x' }).trustProxy).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy(' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8, loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    for (const wrong of ['proxy.example.com', '10.0.0.0/33', '10.0.0/8', '127.0.0.1/8/1', 'yes']) {
      expect(() => loadConfig({ JWT_SECRET: 'x', TRUST_PROXY: wrong })).toThrow('TRUST_PROXY');
    }
  });

  it('turns a hop count into a trust function Fastify 5 accepts', () => {
    const twoHops = fastifyTrustProxy(2);
    expect(typeof twoHops).toBe('function');
    if (typeof twoHops !== 'function') return;
    expect([0, 1, 2].map((hop) => twoHops('10.0.0.1', hop))).toEqual([true, true, false]);
    expect(fastifyTrustProxy(0)).toBe(false);
    expect(fastifyTrustProxy(['127.0.0.1'])).toEqual(['127.0.0.1']);
  });

  it('limits SMS sends per client and asks for a human check by default with self-hosted ALTCHA', () => {
    const config = loadConfig({ JWT_SECRET: 'x' });
    expect(config.smsSendsPerClientPerHour).toBe(20);
    expect(config.humanCheck).toMatchObject({ provider: 'altcha', afterClientSendsPerHour: 3, afterPhoneSendsPerDay: 2 });
  });

  it('refuses a vendor human check without its credentials, in production and outside it', () => {
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => loadConfig({ NODE_ENV, JWT_SECRET: 'x', HUMAN_CHECK_PROVIDER: 'aliyun' })).toThrow('ALIYUN_CAPTCHA_SCENE_ID');
      expect(() => loadConfig({ NODE_ENV, JWT_SECRET: 'x', HUMAN_CHECK_PROVIDER: 'tencent', TENCENT_CAPTCHA_SECRET_ID: 'id' })).toThrow(
        'TENCENT_CAPTCHA_APP_SECRET_KEY',
      );
    }
    expect(() => loadConfig({ JWT_SECRET: 'x', HUMAN_CHECK_PROVIDER: 'geetest' })).toThrow('HUMAN_CHECK_PROVIDER');
    expect(() => loadConfig({ JWT_SECRET: 'x', TENCENT_CAPTCHA_APP_ID: 'abc' })).toThrow('TENCENT_CAPTCHA_APP_ID');
    const tencent = loadConfig({
      JWT_SECRET: 'x',
      HUMAN_CHECK_PROVIDER: 'tencent',
      TENCENT_CAPTCHA_SECRET_ID: 'id',
      TENCENT_CAPTCHA_SECRET_KEY: 'key',
      TENCENT_CAPTCHA_APP_ID: '190000000',
      TENCENT_CAPTCHA_APP_SECRET_KEY: 'app-secret',
    });
    expect(tencent.humanCheck.tencent).toEqual({ secretId: 'id', secretKey: 'key', captchaAppId: 190000000, appSecretKey: 'app-secret' });
  });
});
