import { expect, test } from '@playwright/test';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

const TRANSITION_TIMEOUT = 30_000;
const INSTANCE_NAME = 'e2e-包日机';

test('rent by the day: market 包日 → pay upfront → 续费 from the current end → 转按量计费 with the refund previewed', async ({ page, request }) => {
  test.setTimeout(180_000);
  const telephone = freshPhone();
  const session = await registerByApi(request, telephone);
  // ¥500 through the sandbox gateway, as a payer's browser would.
  const headers = { authorization: `Bearer ${session.jwtToken}` };
  const recharge = await request.post('/api/v1/payment/recharge', { headers, data: { amount: 50_000, channel: 'WXPAY' } });
  const { rechargeId } = ((await recharge.json()) as { result: { rechargeId: string } }).result;
  expect((await request.post(`/sandbox-pay/${rechargeId}/pay`)).ok()).toBe(true);

  await page.goto('/login?redirect=%2Fcomputility-market%3FchargingRuleId%3D2%26gpuNum%3D1');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  const balance = page.getByRole('status', { name: '账户余额' });
  await expect(balance).toHaveText('¥500.00');

  await test.step('算力市场 priced per day; 创建实例 shows the package price and its end before paying', async () => {
    await expect(page.getByRole('radio', { name: '包日' })).toBeChecked();
    await page.getByRole('link', { name: /^租用 / }).first().click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/createInstances\?hostId=.*chargingRuleId=2/);
    await expect(page.getByRole('radio', { name: '包日' })).toBeChecked();
    await page.getByRole('radiogroup', { name: '时长' }).getByText('2 天', { exact: true }).click();
    await expect(page.getByText('到期时间', { exact: true })).toBeVisible();
    await page.getByLabel('实例名称').fill(INSTANCE_NAME);
    await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
    await page.getByRole('button', { name: /^支付 ¥[\d,.]+ 并创建$/ }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
  });

  const row = page.getByRole('row').filter({ hasText: INSTANCE_NAME });
  const expiry = row.getByText(/^到期 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await test.step('the list shows the package and its end; the balance paid for it at once', async () => {
    await expect(row.locator('.slg-instance-status-tag')).toHaveText('运行中', { timeout: TRANSITION_TIMEOUT });
    await expect(row.getByText('包日', { exact: true })).toBeVisible();
    await expect(expiry).toBeVisible();
    await expect(balance).not.toHaveText('¥500.00');
  });
  const endBefore = Date.parse((await expiry.innerText()).replace('到期 ', '').replace(' ', 'T'));

  await test.step('续费 1 天 extends the end by a day', async () => {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '续费', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('1 天', { exact: true }).click();
    await dialog.getByRole('button', { name: /^确认续费 ¥[\d,.]+$/ }).click();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => Date.parse((await expiry.innerText()).replace('到期 ', '').replace(' ', 'T')))
      .toBe(endBefore + 86_400_000);
  });

  await test.step('转按量计费 shows what comes back before confirming, and the instance becomes pay-as-you-go', async () => {
    const before = await balance.innerText();
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '转按量计费', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('退回余额');
    await expect(dialog).toContainText('GPU 不再为你保留');
    await dialog.getByRole('button', { name: /^转按量计费，退回 ¥[\d,.]+$/ }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText('按量计费')).toBeVisible();
    await expect(balance).not.toHaveText(before);
  });
});
