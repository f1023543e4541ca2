import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

/** The sim fleet's transitions take a few seconds (SIM_*_SECONDS); the list polls every 2.5 s meanwhile. */
const TRANSITION_TIMEOUT = 30_000;
const INSTANCE_NAME = 'e2e-训练机';

async function rechargeBySandbox(page: Page, yuan: string): Promise<void> {
  await page.getByLabel('充值金额').fill(yuan);
  await page.getByRole('radio', { name: '微信支付' }).check();
  await page.getByRole('button', { name: '立即充值' }).click();
  const dialog = page.getByRole('dialog');
  const [gateway] = await Promise.all([page.waitForEvent('popup'), dialog.getByRole('link', { name: '在新窗口打开支付页' }).click()]);
  await gateway.getByRole('button', { name: '确认支付' }).click();
  await expect(gateway.getByRole('heading', { name: '支付成功' })).toBeVisible();
  await gateway.close();
  await expect(dialog.getByText('充值成功')).toBeVisible();
  await dialog.getByRole('button', { name: '完成' }).click();
  await expect(dialog).toBeHidden();
}

test('rent a GPU: market → create → 创建中 → 运行中 live → password → power off → 无卡模式 → release, with the charges billed', async ({ page, request }) => {
  test.setTimeout(180_000);
  const telephone = freshPhone();
  await registerByApi(request, telephone);
  await page.goto('/login?redirect=%2Fctrl-cost-center%2Fcost-center%2Frecharge');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  await expect(page).toHaveURL(/\/ctrl-cost-center\/cost-center\/recharge$/);
  const balance = page.getByRole('status', { name: '账户余额' });

  await test.step('recharge ¥100 through the sandbox gateway', async () => {
    await rechargeBySandbox(page, '100');
    await expect(balance).toHaveText('¥100.00');
  });

  await test.step('算力市场: one GPU, pick the cheapest host, see the price before creating', async () => {
    await page.getByRole('navigation', { name: '控制台菜单' }).getByRole('link', { name: '算力市场' }).click();
    await expect(page).toHaveURL(/\/computility-market$/);
    await page.getByRole('radiogroup', { name: 'GPU 数量' }).getByText('1 卡', { exact: true }).click();
    await expect(page).toHaveURL(/gpuNum=1/);
    await page.getByRole('link', { name: /^租用 / }).first().click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/createInstances\?hostId=/);
    await expect(page.getByText(/^余额需至少覆盖1小时费用：¥\d+\.\d{2}$/)).toBeVisible();
    await expect(page.getByText(/^¥\d+\.\d{2}\/时$/)).toBeVisible();
    await page.getByLabel('实例名称').fill(INSTANCE_NAME);
    await page.getByRole('button', { name: '下一步：确认订单' }).click();
    // 确认订单: the same price again, the name, and the agreement where the order is placed.
    await expect(page).toHaveURL(/\/ctrl-container-instances\/confirm-order\?hostId=.*gpuNum=1/);
    await expect(page.getByText(/^余额需至少覆盖1小时费用：¥\d+\.\d{2}$/)).toBeVisible();
    await expect(page.getByText(/^¥\d+\.\d{2}\/时$/)).toBeVisible();
    await expect(page.getByText(INSTANCE_NAME, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: '确认创建' })).toBeDisabled();
    await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
    await page.getByRole('button', { name: '确认创建' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
  });

  // Set on the page's window: still there at the end means the page was never reloaded.
  await page.evaluate(() => Object.assign(window, { slgNoReload: true }));
  const row = page.getByRole('row').filter({ hasText: INSTANCE_NAME });
  const status = row.locator('.slg-instance-status-tag');

  await test.step('创建中 turns into 运行中 without a reload', async () => {
    await expect(status).toHaveText('创建中');
    await expect(status).toHaveText('运行中', { timeout: TRANSITION_TIMEOUT });
    await expect(row.getByText(/^ssh -p \d+ root@/)).toBeVisible();
  });
  const instanceId = (await row.locator('.slg-instance-id').innerText()).trim();
  expect(instanceId).toMatch(/^slg-[a-z0-9]{10}$/);

  await test.step('the root password is hidden until 查看', async () => {
    await expect(row.getByText('已隐藏')).toBeAttached();
    await row.getByRole('button', { name: `查看 ${INSTANCE_NAME} 的 root 密码` }).click();
    await expect(row.locator('code')).toHaveText(/^\S{8,}$/);
    await row.getByRole('button', { name: '隐藏' }).click();
    await expect(row.locator('code')).toHaveCount(0);
  });

  await test.step('关机 after a confirmation that says the GPUs are released', async () => {
    await row.getByRole('button', { name: '关机' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('关机后停止计费，GPU 将被释放，再次开机可能因 GPU 不足无法使用有卡模式');
    // 定时关机 is offered right there.
    await expect(dialog.getByRole('radio', { name: '定时关机' })).toBeEnabled();
    await expect(dialog.getByText('定时关机', { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: '立即关机' }).click();
    await expect(status).toHaveText('已关机', { timeout: TRANSITION_TIMEOUT });
  });

  await test.step('开机 in 无卡模式 at its own rate', async () => {
    // One step: 开机 opens the dialog with both modes and their prices.
    await row.getByRole('button', { name: '开机' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('不占用 GPU');
    await dialog.getByRole('radio', { name: /^无卡模式开机/ }).check();
    await dialog.getByRole('button', { name: '无卡模式开机' }).click();
    await expect(status).toHaveText('无卡模式运行中', { timeout: TRANSITION_TIMEOUT });
    await expect(row).toContainText('¥0.10/时');
  });

  await test.step('关机 again, then 释放 after ticking that the disks are wiped', async () => {
    await row.getByRole('button', { name: '关机' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '立即关机' }).click();
    await expect(status).toHaveText('已关机', { timeout: TRANSITION_TIMEOUT });
    // Off, it shows what 开机 starts with (GPUs and their price) and the last run's mode apart.
    await expect(row).toContainText('上次以无卡模式运行');
    await expect(row).not.toContainText('（无卡模式）');
    await expect(row).not.toContainText('¥0.10/时');
    await row.getByRole('button', { name: '释放' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('系统盘与数据盘的数据将被删除且无法恢复');
    const release = dialog.getByRole('button', { name: '释放' });
    await expect(release).toBeDisabled();
    await dialog.getByRole('checkbox').check();
    await release.click();
    await expect(row).toHaveCount(0, { timeout: TRANSITION_TIMEOUT });
    await expect(page.getByText('还没有实例，去算力市场挑一台 GPU 主机吧')).toBeVisible();
    expect(await page.evaluate(() => 'slgNoReload' in window)).toBe(true);
  });

  await test.step('the balance went down and 账单明细 shows the charges of the instance', async () => {
    await expect(balance).not.toHaveText('¥100.00');
    await page.goto('/ctrl-cost-center/cost-center/f-details');
    await expect(page.getByRole('row').filter({ hasText: instanceId }).first()).toBeVisible();
  });
});
