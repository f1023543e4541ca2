import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// E2E_PORT lets two runs on one machine use different ports (each with its own data directory).
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_JWT_SECRET = 'e2e-secret-known-to-the-tests-only-0123456789';
/** Registering this phone makes an operator (OPERATOR_TELEPHONES), who issues redemption codes. */
export const E2E_OPERATOR_PHONE = '13500000001';
const dataDir = mkdtempSync(join(tmpdir(), 'slg-e2e-'));

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    trace: process.env.CI ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    // Exactly what `npm start` runs: build the console if needed, migrate, seed, serve.
    command: 'node ../scripts/start.mjs',
    url: `http://127.0.0.1:${E2E_PORT}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      JWT_SECRET: E2E_JWT_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      DATABASE_URL: '',
      OPERATOR_TELEPHONES: E2E_OPERATOR_PHONE,
      PAYMENT_PROVIDERS: 'sandbox,bank',
      BANK_TRANSFER_ACCOUNT: '招商银行北京分行|算力港科技有限公司|110900000010101',
      // Every test registers phones from 127.0.0.1: the SMS abuse limits (tested in the server suite)
      // must not ask these flows for a human check.
      SMS_SENDS_PER_CLIENT_PER_HOUR: '100000',
      HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR: '100000',
      HUMAN_CHECK_AFTER_PHONE_SENDS_PER_DAY: '10',
    },
  },
});
