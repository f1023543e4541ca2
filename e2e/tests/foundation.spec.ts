import { expect, test } from '@playwright/test';
import { decodeJwt, SignJWT } from 'jose';
import { E2E_JWT_SECRET } from '../playwright.config.js';
import { codeFromOutbox, freshPhone, signInWithPassword, storedSession } from './fixtures.js';

const PASSWORD = 'train2026x';

test('a visitor registers, signs out and in, keeps the session, and the console guards hold', async ({ page, request }) => {
  const telephone = freshPhone();

  await test.step('register through the UI with the code from the outbox', async () => {
    await page.goto('/register');
    await page.getByLabel('手机号').fill(telephone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确认' }).click();
    await expect(page.getByRole('button', { name: /秒后重新获取/ })).toBeDisabled();
    const code = await codeFromOutbox(request, telephone, 'register');
    await page.getByLabel('验证码').fill(code);
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByLabel('确认密码').fill(PASSWORD);
    await page.getByLabel(/我已阅读并同意/).check();
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await expect(page).toHaveURL(/\/welcome$/);
    await expect(page.getByRole('heading', { name: '注册成功，欢迎加入算力港！' })).toBeVisible();
  });

  await test.step('a signed-in account is sent from /signup to its console', async () => {
    await page.goto('/signup');
    await expect(page).toHaveURL(/\/ctrl-overview\/overview$/);
  });

  await test.step('the overview shows a balance of ¥0.00', async () => {
    await page.goto('/ctrl-overview/overview');
    await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥0.00');
    await expect(page).toHaveTitle(/算力港/);
  });

  await test.step('sign out', async () => {
    await page.getByRole('button', { name: '账号菜单' }).click();
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login/);
    expect((await storedSession(page)).token).toBeNull();
  });

  await test.step('sign in with the password and reload keeps the session', async () => {
    await page.goto('/login');
    await signInWithPassword(page, telephone, PASSWORD);
    await expect(page).toHaveURL(/\/ctrl-overview\/overview$/);
    await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥0.00');
    await page.reload();
    await expect(page).toHaveURL(/\/ctrl-overview\/overview$/);
    await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥0.00');
  });

  await test.step('an expired access token is refreshed without the user noticing', async () => {
    const before = await storedSession(page);
    if (!before.token) throw new Error('no token stored');
    const claims = decodeJwt(before.token);
    // Re-sign the same session's claims with an expiry in the past: exactly what an old token looks like.
    const expired = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.sub))
      .setIssuer('suanligang')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(E2E_JWT_SECRET));
    await page.evaluate((token) => {
      const raw = localStorage.getItem('slg-user');
      if (!raw) throw new Error('no session');
      const parsed = JSON.parse(raw) as { state: { token: string } };
      parsed.state.token = token;
      localStorage.setItem('slg-user', JSON.stringify(parsed));
    }, expired);
    const refreshed = page.waitForResponse((response) => response.url().includes('/api/v1/auth/refresh-token') && response.ok());
    await page.reload();
    await refreshed;
    await expect(page).toHaveURL(/\/ctrl-overview\/overview$/);
    await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥0.00');
    await expect(page.getByText('登录状态已过期')).toHaveCount(0);
    const after = await storedSession(page);
    expect(after.token).not.toBe(expired);
    expect(after.refreshToken).not.toBe(before.refreshToken);
  });

  await test.step('a protected URL while signed out goes to login and back after sign-in', async () => {
    await page.getByRole('button', { name: '账号菜单' }).click();
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto('/ctrl-overview/overview?tab=1');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fctrl-overview%2Foverview%3Ftab%3D1$/);
    await signInWithPassword(page, telephone, PASSWORD);
    await expect(page).toHaveURL(/\/ctrl-overview\/overview\?tab=1$/);
  });

  await test.step('a logged-in user opening /login goes to /', async () => {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('a components segment shows 403 and an unknown path 页面不存在', async () => {
    await page.goto('/x/components/y');
    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByText('没有权限访问该页面')).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByText('页面不存在')).toBeVisible();
    await page.getByRole('button', { name: '返回首页' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('dark mode survives a reload', async () => {
    await page.goto('/ctrl-overview/overview');
    await page.getByRole('button', { name: '颜色模式' }).click();
    await page.getByRole('menuitem', { name: '深色' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥0.00');
  });
});

test('system colour mode follows the OS live', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('SMS sign-in creates the account and offers to set a password', async ({ page, request }) => {
  const telephone = freshPhone();
  await page.goto('/login?redirect=%2Fctrl-overview%2Foverview');
  await page.getByRole('tab', { name: '验证码登录' }).click();
  await page.getByLabel('手机号').fill(telephone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  const code = await codeFromOutbox(request, telephone, 'login');
  await page.getByLabel('验证码', { exact: true }).fill(code);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('确认密码').fill(PASSWORD);
  await dialog.getByRole('button', { name: '确认' }).click();
  await expect(page).toHaveURL(/\/ctrl-overview\/overview$/);
  await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥0.00');

  // The password just set works for a password sign-in.
  const login = await request.post('/api/v1/auth/login', { data: { telephone, password: PASSWORD, countryCode: 86 } });
  expect(login.ok()).toBe(true);
});

test('a wrong password is refused with one message on the form', async ({ page }) => {
  await page.goto('/login');
  await signInWithPassword(page, freshPhone(), 'wrong12345');
  await expect(page.getByText('手机号或密码错误').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('a visitor who never registered is welcomed on /welcome, not congratulated', async ({ page }) => {
  await page.goto('/welcome');
  await expect(page.getByRole('heading', { name: '欢迎来到算力港' })).toBeVisible();
  await expect(page.getByText(/注册成功/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: '立即注册' })).toHaveAttribute('href', '/register');
});
