import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_OPERATOR_PHONE } from '../playwright.config.js';

let counter = 0;
/** A phone number no other test of this run uses. */
export function freshPhone(): string {
  counter += 1;
  const tail = String((Date.now() % 1_000_000) * 100 + counter).slice(-8).padStart(8, '0');
  return `137${tail}`;
}

/** Reads the newest code of a type from the console SMS outbox, polling until it arrives. */
export async function codeFromOutbox(request: APIRequestContext, telephone: string, type: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/sms?telephone=${telephone}`);
      const body = (await response.json()) as { result: { type: string; code: string }[] };
      code = body.result.find((message) => message.type === type)?.code ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

export interface StoredSession {
  token: string | null;
  refreshToken: string | null;
  accountType: number | null;
}

export async function storedSession(page: Page): Promise<StoredSession> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('slg-user');
    const parsed = raw ? (JSON.parse(raw) as { state?: StoredSession }) : {};
    return parsed.state ?? { token: null, refreshToken: null, accountType: null };
  });
}

export async function signInWithPassword(page: Page, telephone: string, password: string): Promise<void> {
  await page.getByLabel('手机号').fill(telephone);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

export const DEFAULT_PASSWORD = 'train2026x';

/** Registers through the API (code from the outbox) and returns the tokens. */
export async function registerByApi(
  request: APIRequestContext,
  telephone: string,
  password = DEFAULT_PASSWORD,
): Promise<{ jwtToken: string; refreshToken: string }> {
  const sent = await request.get(`/api/v1/smscode/phone?telephone=${telephone}&countryCode=86&type=register`);
  expect(sent.ok()).toBe(true);
  const code = await codeFromOutbox(request, telephone, 'register');
  const registered = await request.post('/api/v1/auth/register', { data: { telephone, password, code, countryCode: 86 } });
  expect(registered.ok()).toBe(true);
  return ((await registered.json()) as { result: { jwtToken: string; refreshToken: string } }).result;
}

/** The operator of the run (E2E_OPERATOR_PHONE): registered by whichever test needs it first. */
export async function operatorToken(request: APIRequestContext): Promise<string> {
  const registered = await registerByApi(request, E2E_OPERATOR_PHONE).catch(async () => {
    const login = await request.post('/api/v1/auth/login', { data: { telephone: E2E_OPERATOR_PHONE, password: DEFAULT_PASSWORD, countryCode: 86 } });
    return ((await login.json()) as { result: { jwtToken: string } }).result;
  });
  return registered.jwtToken;
}

/** 账号菜单 › 退出登录, then waits for the sign-in page (a sub-account's own), so nothing that follows races the redirect. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: '账号菜单' }).click();
  await page.getByRole('button', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/(sub-account-)?login/);
}

/** An API call as the console makes it, expecting the envelope's code 200; its result. */
export async function api<T>(request: APIRequestContext, token: string, method: 'get' | 'post' | 'delete' | 'put', path: string, data?: unknown): Promise<T> {
  const response = await request[method](`/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` }, ...(data ? { data } : {}) });
  const body = (await response.json()) as { code: number; rspmsg: string; result: T };
  expect(body.code, `${method} ${path}: ${body.rspmsg}`).toBe(200);
  return body.result;
}

/** From 算力市场 as shown: 租用 on the first host, the instance named, the order confirmed; lands on the instance list. */
export async function rentFirstHost(page: Page, name: string, datasets: readonly string[] = []): Promise<void> {
  await page.getByRole('link', { name: /^租用 / }).first().click();
  for (const dataset of datasets) {
    await page.getByLabel('挂载数据集').click();
    await page.locator('.ant-select-item-option').filter({ hasText: `${dataset}（` }).click();
  }
  if (datasets.length > 0) await page.keyboard.press('Escape');
  await page.getByLabel('实例名称').fill(name);
  await page.getByRole('button', { name: '下一步：确认订单' }).click();
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await page.getByRole('button', { name: '确认创建' }).click();
  await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
}
