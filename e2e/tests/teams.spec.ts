import { expect, test } from '@playwright/test';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword, signOut, storedSession } from './fixtures.js';

const TRANSITION_TIMEOUT = 30_000;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const MAIN_INSTANCE = 'e2e-主账号的机器';
const SUB_INSTANCE = 'e2e-子账号的机器';
const SUB_PASSWORD = 'team2026pass';
const TOKEN_NAME = 'e2e 训练脚本';

test('a team: the main account creates a sub-account (容器实例 仅本人, 费用中心 无), the sub-account rents, is kept out of the cost centre and sees only its own instance; the main account sees both; a disabled token is refused', async ({ page, request }) => {
  test.setTimeout(240_000);
  const telephone = freshPhone();
  const session = await registerByApi(request, telephone);
  const headers = { authorization: `Bearer ${session.jwtToken}` };
  const recharge = await request.post('/api/v1/payment/recharge', { headers, data: { amount: 50_000, channel: 'WXPAY' } });
  const { rechargeId } = ((await recharge.json()) as { result: { rechargeId: string } }).result;
  expect((await request.post(`/sandbox-pay/${rechargeId}/pay`)).ok()).toBe(true);
  const mainCreated = await request.post('/api/v1/rental', { headers, data: { hostId: 'bj-a-4090-02', gpuNum: 1, imageId: IMAGE, chargingRuleId: 1, name: MAIN_INSTANCE } });
  expect(mainCreated.ok()).toBe(true);
  const username = `e2e_${telephone.slice(-8)}`;

  await page.goto('/login?redirect=%2Fctrl-personal-center%2Fpersonal-center%2Fchild-account');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);

  await test.step('子账号管理: create a sub-account that shares the main balance, with the default permissions', async () => {
    await page.getByRole('button', { name: '创建子账号' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('用户名').fill(username);
    await dialog.getByLabel('密码', { exact: true }).fill(SUB_PASSWORD);
    await dialog.getByLabel('确认密码').fill(SUB_PASSWORD);
    await dialog.getByRole('radio', { name: /^共用主账号余额/ }).check();
    await dialog.getByRole('button', { name: '创建' }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('row').filter({ hasText: username });
    await expect(row).toBeVisible();
    await expect(row.getByText('容器实例·仅本人数据')).toBeVisible();
    await expect(row.getByText(/费用中心/)).toHaveCount(0);
  });

  await signOut(page);

  await test.step('the sub-account signs in at /sub-account-login and lands on 账号信息', async () => {
    await page.goto('/sub-account-login');
    await page.getByLabel('用户名').fill(username);
    await page.getByRole('textbox', { name: '密码' }).fill(SUB_PASSWORD);
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page).toHaveURL(/\/ctrl-child-info\/child-account-info$/);
    await expect(page.getByText(username).first()).toBeVisible();
    expect((await storedSession(page)).accountType).toBe(2);
  });

  await test.step('it rents a GPU: market → create → confirm order', async () => {
    await page.goto('/computility-market?gpuNum=1');
    await page.getByRole('link', { name: /^租用 / }).first().click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/createInstances\?hostId=/);
    await page.getByLabel('实例名称').fill(SUB_INSTANCE);
    await page.getByRole('button', { name: '下一步：确认订单' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/confirm-order\?/);
    await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
    await page.getByRole('button', { name: '确认创建' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
  });

  await test.step('it sees its own instance only, and the cost centre is closed to it (403)', async () => {
    const own = page.getByRole('row').filter({ hasText: SUB_INSTANCE });
    await expect(own.locator('.slg-instance-status-tag')).toHaveText('运行中', { timeout: TRANSITION_TIMEOUT });
    await expect(page.getByRole('row').filter({ hasText: MAIN_INSTANCE })).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: '控制台菜单' }).getByText('费用中心')).toHaveCount(0);
    await page.goto('/ctrl-cost-center/cost-center/recharge');
    await expect(page).toHaveURL(/\/403$/);
    const { token } = await storedSession(page);
    const refused = await request.get('/api/v1/payment/recharge?page=1&pageSize=10', { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(403);
  });

  await test.step('the main account sees both instances', async () => {
    await page.goto('/ctrl-child-info/child-account-info');
    await signOut(page);
    await expect(page).toHaveURL(/\/sub-account-login/);
    await page.goto('/login?redirect=%2Fctrl-container-instances%2FcontainerInstances');
    await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
    await expect(page.getByRole('row').filter({ hasText: SUB_INSTANCE })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: MAIN_INSTANCE })).toBeVisible();
  });

  await test.step('设置: a token works until it is disabled, then it is refused at once', async () => {
    const { token: mainToken } = await storedSession(page);
    const created = await request.post('/api/v1/settings/token', { headers: { authorization: `Bearer ${mainToken}` }, data: { name: TOKEN_NAME } });
    expect(created.ok()).toBe(true);
    const secret = ((await created.json()) as { result: { token: string } }).result.token;
    const withToken = { authorization: `Bearer ${secret}` };
    expect((await request.get('/api/v1/rental?page=1&pageSize=10', { headers: withToken })).status()).toBe(200);

    await page.goto('/ctrl-personal-center/personal-center/setting');
    const row = page.getByRole('row').filter({ hasText: TOKEN_NAME });
    await row.getByRole('switch').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('立即无法调用 API');
    await dialog.getByRole('button', { name: '停用' }).click();
    // The server's answer first (its toast), then the list refetched with the new status.
    await expect(page.getByText('令牌已停用，使用它的请求将被拒绝')).toBeVisible();
    await expect(row.getByText('已停用')).toBeVisible();
    expect((await request.get('/api/v1/rental?page=1&pageSize=10', { headers: withToken })).status()).toBe(401);
  });
});
