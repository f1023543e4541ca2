import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_OPERATOR_PHONE } from '../playwright.config.js';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

const TRANSITION_TIMEOUT = 30_000;
const INSTANCE_NAME = 'e2e-包周机';
const VOUCHER_NAME = 'e2e 包周立减券';
const IMAGE_NAME = 'e2e-训练环境';

/** The operator's session: registered by the first test that needs it, signed in by the others. */
async function operatorToken(request: APIRequestContext): Promise<string> {
  const registered = await registerByApi(request, E2E_OPERATOR_PHONE).catch(async () => {
    const login = await request.post('/api/v1/auth/login', { data: { telephone: E2E_OPERATOR_PHONE, password: DEFAULT_PASSWORD, countryCode: 86 } });
    return ((await login.json()) as { result: { jwtToken: string } }).result;
  });
  return registered.jwtToken;
}

test('rent by the week with a voucher → 续费 → 转按量计费 with the refund shown → 监控 → 保存镜像 → 更换镜像 → 扩容 → 释放', async ({ page, request }) => {
  test.setTimeout(240_000);
  const telephone = freshPhone();
  const session = await registerByApi(request, telephone);
  // ¥2,000 through the sandbox gateway, as a payer's browser would, and a ¥30 voucher from the operator.
  const headers = { authorization: `Bearer ${session.jwtToken}` };
  const recharge = await request.post('/api/v1/payment/recharge', { headers, data: { amount: 200_000, channel: 'WXPAY' } });
  const { rechargeId } = ((await recharge.json()) as { result: { rechargeId: string } }).result;
  expect((await request.post(`/sandbox-pay/${rechargeId}/pay`)).ok()).toBe(true);
  const issued = await request.post('/api/v1/admin/vouchers', {
    headers: { authorization: `Bearer ${await operatorToken(request)}` },
    data: { telephones: [telephone], name: VOUCHER_NAME, amount: 3_000, minOrderAmount: 10_000, validDays: 30 },
  });
  expect(issued.ok()).toBe(true);

  await page.goto('/login?redirect=%2Fcomputility-market%3FchargingRuleId%3D3%26gpuNum%3D1');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  const balance = page.getByRole('status', { name: '账户余额' });
  await expect(balance).toHaveText('¥2,000.00');

  await test.step('算力市场 priced per week; 创建实例 takes the voucher off the price before paying', async () => {
    await expect(page.getByRole('radio', { name: '包周' })).toBeChecked();
    await page.getByRole('link', { name: /^租用 / }).first().click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/createInstances\?hostId=.*chargingRuleId=3/);
    await expect(page.getByRole('radio', { name: '包周' })).toBeChecked();
    await page.getByRole('radiogroup', { name: '时长' }).getByText('1 周', { exact: true }).click();
    await page.getByLabel('代金券', { exact: true }).click();
    await page.locator('.ant-select-item-option', { hasText: VOUCHER_NAME }).click();
    await expect(page.getByText('-¥30.00')).toBeVisible();
    await expect(page.getByText('到期时间', { exact: true })).toBeVisible();
    await page.getByLabel('实例名称').fill(INSTANCE_NAME);
    await page.getByRole('button', { name: '下一步：确认订单' }).click();
    // 确认订单 prices the same choice: the voucher off, the end, then the agreement and the payment.
    await expect(page).toHaveURL(/\/ctrl-container-instances\/confirm-order\?.*chargingRuleId=3.*voucherId=\d+/);
    await expect(page.getByText('-¥30.00')).toBeVisible();
    await expect(page.getByText('到期时间', { exact: true })).toBeVisible();
    await expect(page.getByText(VOUCHER_NAME, { exact: true })).toBeVisible();
    await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
    await page.getByRole('button', { name: /^支付 ¥[\d,.]+ 并创建$/ }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
  });

  const row = page.getByRole('row').filter({ hasText: INSTANCE_NAME });
  const status = row.locator('.slg-instance-status-tag');
  const expiry = row.getByText(/^到期 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await test.step('the list shows the package and its end; the balance paid for it at once', async () => {
    await expect(status).toHaveText('运行中', { timeout: TRANSITION_TIMEOUT });
    await expect(row.getByText('包周', { exact: true })).toBeVisible();
    await expect(expiry).toBeVisible();
    await expect(balance).not.toHaveText('¥2,000.00');
  });
  const endBefore = Date.parse((await expiry.innerText()).replace('到期 ', '').replace(' ', 'T'));

  await test.step('续费 1 周 extends the end by a week', async () => {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '续费', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('1 周', { exact: true }).click();
    await dialog.getByRole('button', { name: /^确认续费 ¥[\d,.]+$/ }).click();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => Date.parse((await expiry.innerText()).replace('到期 ', '').replace(' ', 'T')))
      .toBe(endBefore + 7 * 86_400_000);
  });

  await test.step('转按量计费 shows what comes back before confirming, and the instance becomes pay-as-you-go', async () => {
    const before = await balance.innerText();
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '转按量计费', exact: true }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/payByVolume\?instanceId=slg-[a-z0-9]{10}$/);
    const main = page.getByRole('main');
    await expect(main).toContainText('退回余额');
    await expect(main).toContainText('代金券抵扣的部分不退');
    await expect(main).toContainText('GPU 不再为你保留');
    await main.getByRole('button', { name: /^转按量计费，退回 ¥[\d,.]+$/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('将立即改为按量计费');
    await dialog.getByRole('button', { name: /^转按量计费，退回 ¥[\d,.]+$/ }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
    await expect(row.getByText('按量计费')).toBeVisible();
    await expect(balance).not.toHaveText(before);
  });

  await test.step('监控 charts the running instance’s GPU, CPU, memory and disks', async () => {
    await row.getByRole('link', { name: '监控' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/instance-monitoring\?instanceId=/);
    // A machine that just started gets its first sample within a scrape (15 s); the page asks again by itself.
    await expect(page.getByRole('img', { name: /^GPU 利用率，最近/ })).toBeVisible({ timeout: 40_000 });
    for (const chart of ['CPU 利用率', '内存', '数据盘']) {
      await expect(page.getByRole('img', { name: new RegExp(`^${chart}，最近`) })).toBeVisible();
    }
    // The latest GPU utilisation beside its title means the series carried points.
    await expect(page.getByText(/^当前 \d+(\.\d+)?%$/).first()).toBeVisible({ timeout: TRANSITION_TIMEOUT });
    await page.getByRole('main').getByRole('link', { name: '实例列表' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
  });

  await test.step('关机, then 保存镜像 as a private image that becomes 就绪 in 我的镜像', async () => {
    await row.getByRole('button', { name: '关机' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '立即关机' }).click();
    await expect(status).toHaveText('已关机', { timeout: TRANSITION_TIMEOUT });
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '保存镜像', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('免费额度 30 GB');
    await dialog.getByLabel('镜像名称').fill(IMAGE_NAME);
    await dialog.getByRole('button', { name: '保存镜像' }).click();
    await expect(dialog).toBeHidden();
    await page.goto('/ctrl-mirror-image/mirrorImage');
    const image = page.getByRole('row').filter({ hasText: IMAGE_NAME });
    await expect(image.getByText('就绪')).toBeVisible({ timeout: TRANSITION_TIMEOUT });
    await page.goto('/ctrl-container-instances/containerInstances');
    await expect(status).toHaveText('已关机', { timeout: TRANSITION_TIMEOUT });
  });

  await test.step('更换镜像 to the saved image rebuilds the system disk and ends powered off', async () => {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '更换镜像', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('系统盘上的所有改动');
    await dialog.getByLabel('新镜像').click();
    await dialog.getByLabel('新镜像').fill(IMAGE_NAME);
    await page.locator('.ant-select-item-option', { hasText: IMAGE_NAME }).click();
    await dialog.getByRole('button', { name: '更换镜像' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText(IMAGE_NAME)).toBeVisible({ timeout: TRANSITION_TIMEOUT });
    await expect(status).toHaveText('已关机', { timeout: TRANSITION_TIMEOUT });
  });

  await test.step('扩容设置 to 100 GB names the daily price of the extra 50 GB before confirming', async () => {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '扩容设置', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('调整后容量').fill('100');
    await expect(dialog.getByText(/^扩容后数据盘为 100 GB，每天 ¥[\d.]+，立即生效/)).toBeVisible();
    await dialog.getByRole('button', { name: '确认扩容到 100 GB' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText(/数据盘 100GB/)).toBeVisible();
  });

  await test.step('释放 after ticking that the disks are wiped', async () => {
    await row.getByRole('button', { name: '释放' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: '释放' }).click();
    await expect(row).toHaveCount(0, { timeout: TRANSITION_TIMEOUT });
  });
});
