import { expect, test, type Page } from '@playwright/test';
import { codeFromOutbox, DEFAULT_PASSWORD, freshPhone, operatorToken, registerByApi, signInWithPassword, signOut, storedSession } from './fixtures.js';

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

test('实名认证: a person submits name and ID number, sees 审核中, and the operator\'s approval shows without a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const telephone = freshPhone();
  await registerByApi(request, telephone);
  await page.goto('/login?redirect=%2Fctrl-personal-center%2Fpersonal-center%2Fauthentication');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  await expect(page.getByRole('heading', { level: 1, name: '实名认证' })).toBeVisible();

  await test.step('个人认证: a wrong check character is refused on its field, the right number is submitted', async () => {
    await page.getByRole('link', { name: '立即认证：个人认证' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '个人认证' })).toBeVisible();
    await page.getByLabel('真实姓名').fill('张三');
    await page.getByLabel('身份证号').fill('110105194912310021');
    await page.getByRole('button', { name: '提交认证' }).click();
    await expect(page.getByText('身份证号校验位不正确，请检查后重新输入')).toBeVisible();
    await page.getByLabel('身份证号').fill('11010519491231002X');
    await page.getByRole('checkbox', { name: /本人承诺所填信息真实有效/ }).check();
    await page.getByRole('button', { name: '提交认证' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '实名认证' })).toBeVisible();
    await expect(page.getByText('审核中，结果出来后本页自动更新')).toBeVisible();
    // Masked, never in full.
    await expect(page.getByText('1101**********002X')).toBeVisible();
  });

  await test.step('the operator approves through the operator API; the page follows by itself', async () => {
    const operator = { authorization: `Bearer ${await operatorToken(request)}` };
    const pending = await request.get('/api/v1/admin/verifications?status=PENDING&kind=PERSON&pageSize=100', { headers: operator });
    const { list } = ((await pending.json()) as { result: { list: { id: number; details: { idNumber: string } }[] } }).result;
    const mine = list.find((item) => item.details.idNumber === '11010519491231002X');
    expect(mine).toBeTruthy();
    expect((await request.post(`/api/v1/admin/verifications/${mine?.id}/approve`, { headers: operator })).ok()).toBe(true);
    await expect(page.getByText('您的账号已完成实名认证')).toBeVisible({ timeout: 20_000 });
  });
});
