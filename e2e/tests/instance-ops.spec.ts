import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

const TRANSITION_TIMEOUT = 30_000;
const INSTANCE_NAME = 'e2e-运维机';
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';

async function instanceStatus(request: APIRequestContext, headers: Record<string, string>, instanceId: string): Promise<string> {
  const answer = await request.get(`/api/v1/rental/detail?instanceId=${instanceId}`, { headers });
  const { status, operation } = ((await answer.json()) as { result: { status: string; operation: string | null } }).result;
  return operation ? `${status}:${operation}` : status;
}

test('an instance that is off: 升降配置 to 2 GPUs, a custom service port, then a clone with its data disk', async ({ page, request }) => {
  test.setTimeout(180_000);
  const telephone = freshPhone();
  const session = await registerByApi(request, telephone);
  const headers = { authorization: `Bearer ${session.jwtToken}` };
  const recharge = await request.post('/api/v1/payment/recharge', { headers, data: { amount: 50_000, channel: 'WXPAY' } });
  const { rechargeId } = ((await recharge.json()) as { result: { rechargeId: string } }).result;
  expect((await request.post(`/sandbox-pay/${rechargeId}/pay`)).ok()).toBe(true);
  // A pay-as-you-go instance on a host of its own, run once and powered off (the API is the quick way there).
  const created = await request.post('/api/v1/rental', { headers, data: { hostId: 'bj-a-4090-08', gpuNum: 1, imageId: IMAGE, chargingRuleId: 1, name: INSTANCE_NAME } });
  expect(created.ok()).toBe(true);
  const { instanceId } = ((await created.json()) as { result: { instanceId: string } }).result;
  await expect.poll(() => instanceStatus(request, headers, instanceId), { timeout: TRANSITION_TIMEOUT }).toBe('PoweredOn');
  expect((await request.post('/api/v1/rental/power_off', { headers, data: { instanceId } })).ok()).toBe(true);
  await expect.poll(() => instanceStatus(request, headers, instanceId), { timeout: TRANSITION_TIMEOUT }).toBe('PoweredOff');

  await page.goto('/login?redirect=%2Fctrl-container-instances%2FcontainerInstances');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  const row = page.getByRole('row').filter({ hasText: INSTANCE_NAME }).filter({ hasText: instanceId });
  await expect(row.locator('.slg-instance-status-tag')).toHaveText('已关机', { timeout: TRANSITION_TIMEOUT });

  await test.step('升降配置 shows the new hourly price before confirming and the list follows', async () => {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '升降配置' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/upDownSetting\?instanceId=/);
    await page.locator('.slg-updown-options').getByText('2 卡', { exact: true }).click();
    await expect(page.getByText('变更后单价')).toBeVisible();
    await expect(page.getByText('¥3.96/时')).toBeVisible();
    await page.getByRole('button', { name: '确认变更' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('实例将从 1 卡变为 2 卡，下次开机起按 ¥3.96/时 计费。');
    await dialog.getByRole('button', { name: '确认变更' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
    await expect(row.getByText(/RTX 4090 × 2/)).toBeVisible();
  });

  await test.step('自定义服务 gives an https address for port 6006', async () => {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '自定义服务' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('端口').fill('6006');
    await dialog.getByRole('button', { name: '添加' }).click();
    await expect(dialog.getByRole('link', { name: new RegExp(`^https://${instanceId}-6006\\.bj-a\\.`) })).toBeVisible();
    await dialog.getByRole('button', { name: '关闭', exact: true }).last().click();
    await expect(dialog).toBeHidden();
  });

  await test.step('克隆实例 to another host of the region with the data disk: the order shows the price, the clone comes up, the source stays off', async () => {
    await row.getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: '克隆实例' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/cloneInstances\?instanceId=/);
    await page.getByRole('radio', { name: '选择 北京A区-4090-07' }).check();
    await expect(page.getByRole('checkbox', { name: '同时复制数据盘（50 GB）' })).toBeChecked();
    await expect(page.getByText('每小时费用')).toBeVisible();
    await page.getByLabel('新实例名称').fill('e2e-克隆机');
    await page.getByRole('button', { name: '下一步' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/confirm-clone-order\?/);
    await expect(page.getByText('同地区克隆：复制系统盘和数据盘；原实例保持关机，不受影响')).toBeVisible();
    await expect(page.getByText('¥3.96/时')).toBeVisible();
    await page.getByRole('checkbox', { name: /算力租用协议/ }).check();
    await page.getByRole('button', { name: '确认克隆' }).click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/containerInstances$/);
    const clone = page.getByRole('row').filter({ hasText: 'e2e-克隆机' });
    await expect(clone.locator('.slg-instance-status-tag')).toHaveText('运行中', { timeout: TRANSITION_TIMEOUT });
    await expect(clone.getByText(/RTX 4090 × 2/)).toBeVisible();
    await expect(row.locator('.slg-instance-status-tag')).toHaveText('已关机');
  });
});
