import { expect, test, type Page } from '@playwright/test';
import { codeFromOutbox, freshPhone, storedSession } from './fixtures.js';

async function signOut(page: Page) {
  await page.getByRole('button', { name: '账号菜单' }).click();
  await page.getByRole('button', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** On the dev stand-in of WeChat's QR page: a test user of our own, then 确认登录. */
async function authoriseOnDevWechat(page: Page, nickname: string, openid: string) {
  await expect(page.getByRole('heading', { name: '模拟微信扫码授权' })).toBeVisible();
  await page.getByText('其他测试用户').click();
  await page.getByRole('textbox', { name: '昵称' }).fill(nickname);
  await page.getByRole('textbox', { name: 'openid' }).fill(openid);
  await page.getByRole('button', { name: '确认登录' }).click();
}

test('微信登录: an unknown WeChat binds a phone (new account named after it), then signs straight in; 拒绝 says it was cancelled', async ({ page, request }) => {
  test.setTimeout(120_000);
  const telephone = freshPhone();
  const nickname = `炼丹师${telephone.slice(-4)}`;
  const openid = `e2e_${telephone}`;

  await test.step('first time: WeChat → 绑定手机号 → signed in as a new account', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: '微信登录' }).click();
    await authoriseOnDevWechat(page, nickname, openid);
    await expect(page.getByRole('heading', { name: '绑定手机号' })).toBeVisible();
    await page.getByRole('textbox', { name: '手机号', exact: true }).fill(telephone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByRole('textbox', { name: '验证码', exact: true }).fill(await codeFromOutbox(request, telephone, 'login'));
    await page.getByRole('button', { name: '绑定并登录' }).click();
    // A new account (other: true) is offered a password, as after a first SMS sign-in.
    const setPassword = page.getByRole('dialog', { name: '设置登录密码' });
    await expect(setPassword).toBeVisible();
    await setPassword.getByRole('button', { name: '跳过' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    expect((await storedSession(page)).accountType).toBe(1);
    // The code and state are gone from the address.
    expect(page.url()).not.toContain('code=');
  });

  await test.step('账号设置 shows the WeChat bound, and the account carries its nickname', async () => {
    await page.goto('/ctrl-personal-center/personal-center/account-settings');
    await expect(page.getByText(nickname).first()).toBeVisible();
    await expect(page.getByRole('button', { name: '解绑' })).toBeVisible();
  });

  await test.step('next time WeChat signs straight in', async () => {
    await signOut(page);
    await page.getByRole('button', { name: '微信登录' }).click();
    await authoriseOnDevWechat(page, nickname, openid);
    await expect(page).not.toHaveURL(/\/login/);
    expect((await storedSession(page)).token).toBeTruthy();
  });

  await test.step('拒绝 on the WeChat page comes back with 已取消微信授权', async () => {
    await signOut(page);
    await page.getByRole('button', { name: '微信登录' }).click();
    await expect(page.getByRole('heading', { name: '模拟微信扫码授权' })).toBeVisible();
    await page.getByRole('button', { name: '拒绝' }).click();
    await expect(page.getByText('已取消微信授权')).toBeVisible();
    expect((await storedSession(page)).token).toBeFalsy();
  });
});
