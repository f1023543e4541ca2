import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
});
