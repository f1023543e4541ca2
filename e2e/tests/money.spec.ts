import { expect, test } from '@playwright/test';
import { E2E_OPERATOR_PHONE } from '../playwright.config.js';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

test('recharge ¥100 through the sandbox gateway, see it everywhere, redeem a code, request and cancel an invoice', async ({ page, request }) => {
  // The operator issues a ¥20 balance code through the API (its console comes later).
  const operator = await registerByApi(request, E2E_OPERATOR_PHONE).catch(async () => {
    const login = await request.post('/api/v1/auth/login', { data: { telephone: E2E_OPERATOR_PHONE, password: DEFAULT_PASSWORD, countryCode: 86 } });
    return ((await login.json()) as { result: { jwtToken: string } }).result;
  });
  const codes = await request.post('/api/v1/admin/redeem-codes', {
    headers: { authorization: `Bearer ${operator.jwtToken}` },
    data: { name: '新用户礼包', count: 1, kind: 'BALANCE', amount: 2_000, expiresInDays: 30 },
  });
  expect(codes.ok()).toBe(true);
  const [code] = ((await codes.json()) as { result: { codes: string[] } }).result.codes;
  if (!code) throw new Error('no code issued');

  const telephone = freshPhone();
  await registerByApi(request, telephone);
  await page.goto('/login?redirect=%2Fctrl-cost-center%2Fcost-center%2Frecharge');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  await expect(page).toHaveURL(/\/ctrl-cost-center\/cost-center\/recharge$/);
  await expect(page.getByLabel('账户余额')).toHaveText('¥0.00');

  await test.step('recharge ¥100 by WeChat Pay through the sandbox gateway', async () => {
    await page.getByLabel('充值金额').fill('100');
    await page.getByRole('radio', { name: '微信支付' }).check();
    await page.getByRole('button', { name: '立即充值' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const [gateway] = await Promise.all([page.waitForEvent('popup'), dialog.getByRole('link', { name: '在新窗口打开支付页' }).click()]);
    await expect(gateway.getByText('¥100.00')).toBeVisible();
    await gateway.getByRole('button', { name: '确认支付' }).click();
    await expect(gateway.getByRole('heading', { name: '支付成功' })).toBeVisible();
    await gateway.close();
    await expect(page.getByText('充值成功')).toBeVisible();
    await expect(page.getByLabel('账户余额')).toHaveText('¥100.00');
  });

  await test.step('the recharge record and the income details show it', async () => {
    await page.goto('/ctrl-cost-center/cost-center/recharge-record');
    const recordRow = page.getByRole('row').filter({ hasText: '¥100.00' });
    await expect(recordRow).toHaveCount(1);
    await expect(recordRow).toContainText('微信支付');
    await page.goto('/ctrl-cost-center/cost-center/income-details');
    await expect(page.getByRole('row').filter({ hasText: '+¥100.00' })).toHaveCount(1);
  });

  await test.step('redeem a code at /exchange', async () => {
    await page.goto('/exchange');
    await page.getByLabel('兑换码').fill(code.toLowerCase());
    await page.getByRole('button', { name: '兑换', exact: true }).click();
    await expect(page.getByText('兑换成功')).toBeVisible();
    await expect(page.getByLabel('账户余额')).toHaveText('¥120.00');
  });

  await test.step('fill in invoice information and request an invoice for the recharge', async () => {
    await page.goto('/ctrl-cost-center/cost-center/invoice-info');
    await page.getByLabel('发票抬头').fill('张三');
    await page.getByLabel('接收邮箱').fill('zhangsan@example.com');
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('发票信息已保存')).toBeVisible();

    await page.goto('/ctrl-cost-center/cost-center/invoice');
    await page.getByRole('button', { name: '按充值开票' }).click();
    await expect(page).toHaveURL(/make-price-invoice/);
    await page.getByRole('row').filter({ hasText: '¥100.00' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: '提交申请' }).click();
    await expect(page).toHaveURL(/\/ctrl-cost-center\/cost-center\/invoice$/);
    const invoiceRow = page.getByRole('row').filter({ hasText: '¥100.00' });
    await expect(invoiceRow).toContainText('审核中');
  });

  await test.step('cancel the pending invoice', async () => {
    const invoiceRow = page.getByRole('row').filter({ hasText: '¥100.00' });
    await invoiceRow.getByRole('button', { name: '取消' }).click();
    await page.getByRole('button', { name: '确定' }).click();
    await expect(invoiceRow).toContainText('已取消');
  });
});
