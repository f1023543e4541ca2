import { expect, test } from '@playwright/test';
import { DEFAULT_PASSWORD, freshPhone, operatorToken, registerByApi, signInWithPassword } from './fixtures.js';

test('recharge ¥100 through the sandbox gateway, see it everywhere, redeem a code, request and cancel an invoice', async ({ page, request }) => {
  // The operator issues a ¥20 balance code through the API (its console comes later).
  const operator = await operatorToken(request);
  const codes = await request.post('/api/v1/admin/redeem-codes', {
    headers: { authorization: `Bearer ${operator}` },
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
  await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥0.00');

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
    await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥100.00');
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
    await expect(page.getByRole('status', { name: '账户余额' })).toHaveText('¥120.00');
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
    await invoiceRow.getByRole('button', { name: '取消申请' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '取消申请' }).click();
    await expect(invoiceRow).toContainText('已取消');
  });
});

test('pending payments are live and recoverable: pay later from 充值记录, cancel one, a bank transfer confirmed by the operator', async ({ page, context, request }) => {
  const operator = await operatorToken(request);
  const telephone = freshPhone();
  await registerByApi(request, telephone);
  await page.goto('/login?redirect=%2Fctrl-cost-center%2Fcost-center%2Frecharge');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  await expect(page).toHaveURL(/\/ctrl-cost-center\/cost-center\/recharge$/);
  const balance = page.getByRole('status', { name: '账户余额' });
  await expect(balance).toHaveText('¥0.00');
  // Set on the page's window: still there afterwards means the page was never reloaded.
  const markNoReload = () => page.evaluate(() => Object.assign(window, { slgNoReload: true }));
  const stillNotReloaded = () => page.evaluate(() => 'slgNoReload' in window);

  await test.step('leave a ¥50 WeChat Pay and a ¥30 Alipay recharge unpaid', async () => {
    for (const [amount, channel] of [
      ['50', '微信支付'],
      ['30', '支付宝'],
    ] as const) {
      await page.getByLabel('充值金额').fill(amount);
      await page.getByRole('radio', { name: channel }).check();
      await page.getByRole('button', { name: '立即充值' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('img', { name: /扫描二维码完成支付/ })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  });

  await test.step('去支付 shows the QR code again; paying in another tab updates the list and the balance without a reload', async () => {
    await page.goto('/ctrl-cost-center/cost-center/recharge-record');
    await markNoReload();
    const row = page.getByRole('row').filter({ hasText: '¥50.00' });
    await expect(row).toContainText('待支付');
    await row.getByRole('button', { name: '去支付' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('img', { name: '请使用微信扫描二维码完成支付' })).toBeVisible();
    const payUrl = await dialog.getByRole('link', { name: '在新窗口打开支付页' }).getAttribute('href');
    if (!payUrl) throw new Error('no payment page');

    const gateway = await context.newPage();
    await gateway.goto(payUrl);
    await gateway.getByRole('button', { name: '确认支付' }).click();
    await expect(gateway.getByRole('heading', { name: '支付成功' })).toBeVisible();
    await gateway.close();

    await expect(dialog.getByText('充值成功')).toBeVisible();
    await expect(balance).toHaveText('¥50.00');
    await dialog.getByRole('button', { name: '完成' }).click();
    await expect(row).toContainText('支付成功');
    expect(await stillNotReloaded()).toBe(true);
  });

  await test.step('cancel the ¥30 recharge after a confirmation that names the effect', async () => {
    const row = page.getByRole('row').filter({ hasText: '¥30.00' });
    await expect(row).toContainText('待支付');
    await row.getByRole('button', { name: '取消' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '取消这笔充值？' });
    await expect(confirm).toContainText('取消后该笔充值将关闭，若已扫码付款请勿取消');
    await confirm.getByRole('button', { name: '取消充值' }).click();
    await expect(row).toContainText('已取消');
    await expect(row.getByRole('button', { name: '去支付' })).toHaveCount(0);
    await expect(balance).toHaveText('¥50.00');
  });

  await test.step('a bank transfer reads 待确认 with its 银行流水号; the operator confirms it and the open page shows it paid', async () => {
    await page.goto('/ctrl-cost-center/cost-center/recharge');
    await page.getByLabel('充值金额').fill('200');
    await page.getByRole('radio', { name: '对公转账' }).check();
    await page.getByRole('button', { name: '立即充值' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('银行流水号').fill('CMB2026060100001');
    await dialog.getByRole('button', { name: '提交转账信息' }).click();
    await expect(dialog.getByText('转账信息已提交')).toBeVisible();
    await dialog.getByRole('link', { name: '查看充值记录' }).click();
    await expect(page).toHaveURL(/recharge-record/);
    await markNoReload();

    const row = page.getByRole('row').filter({ hasText: '¥200.00' });
    await expect(row).toContainText('待确认');
    await expect(row).toContainText('银行流水号：CMB2026060100001');
    await expect(row).not.toContainText('待支付');
    const rechargeId = (await row.getByRole('cell').first().textContent())?.trim() ?? '';
    const confirmed = await request.post(`/api/v1/admin/recharge/${rechargeId}/confirm`, {
      headers: { authorization: `Bearer ${operator}` },
      data: {},
    });
    expect(confirmed.ok()).toBe(true);

    // The list polls a pending bank transfer every 10 s.
    await expect(row).toContainText('支付成功', { timeout: 20_000 });
    await expect(balance).toHaveText('¥250.00');
    expect(await stillNotReloaded()).toBe(true);
  });
});
