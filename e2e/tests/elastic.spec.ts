import { expect, test, type Page } from '@playwright/test';
import { api, DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

/** The simulated fleet takes a few seconds a transition; the controller runs every 2 s and metering every minute. */
const TRANSITION_TIMEOUT = 30_000;
const METERING_TIMEOUT = 100_000;
const NAME = 'e2e-推理服务';

interface Deployment {
  id: number;
  deploymentUid: string;
  runningNum: number;
}
interface TimePack {
  id: number;
  balanceSeconds: number;
  status: string;
}

async function signedInWithBalance(page: Page, yuan: number): Promise<{ token: string }> {
  const telephone = freshPhone();
  const session = await registerByApi(page.request, telephone);
  const recharge = await api<{ rechargeId: string }>(page.request, session.jwtToken, 'post', '/payment/recharge', { amount: yuan * 100, channel: 'WXPAY' });
  expect((await page.request.post(`/sandbox-pay/${recharge.rechargeId}/pay`)).ok()).toBe(true);
  await page.goto('/login?redirect=%2Fctrl-flexible-deployment%2Fflexiible-deployment%2Fflexiible-deployment');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  await expect(page.getByRole('status', { name: '账户余额' })).toHaveText(`¥${yuan.toLocaleString('en')}.00`);
  return { token: session.jwtToken };
}

test('a replica set of 2 runs, is edited to 1 (one released), refuses delete while locked, and is deleted', async ({ page }) => {
  test.setTimeout(180_000);
  const { token } = await signedInWithBalance(page, 500);

  await test.step('创建弹性部署: 常驻服务 × 2, the price per hour shown before confirming', async () => {
    await page.getByRole('link', { name: '创建弹性部署' }).first().click();
    await expect(page).toHaveURL(/\/create-flexible$/);
    await page.getByRole('radiogroup', { name: '部署类型' }).getByText('常驻服务', { exact: true }).click();
    await expect(page.getByRole('radio', { name: /常驻服务/ })).toBeChecked();
    await page.getByLabel('部署名称').fill(NAME);
    await page.getByRole('combobox', { name: '镜像' }).click();
    await page.locator('.ant-select-item-option').first().click();
    await page.getByLabel('容器数量').fill('2');
    await expect(page.locator('.ant-card', { hasText: '费用预估' })).toContainText(/预计每小时\s*(约 )?¥[\d.]+/);
    await page.getByRole('button', { name: '创建部署' }).click();
    const confirm = page.getByRole('dialog', { name: '确认创建弹性部署' });
    await expect(confirm).toContainText('2 个容器');
    await expect(confirm).toContainText(/预计每小时/);
    await confirm.getByRole('button', { name: '确认创建' }).click();
    await expect(page).toHaveURL(/\/view-container\?deploymentUid=/);
  });

  await test.step('查看容器: both containers reach 运行中 live, with their SSH command', async () => {
    const live = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: '容器 ID' }) });
    await expect(live.getByRole('row').filter({ hasText: '运行中' })).toHaveCount(2, { timeout: TRANSITION_TIMEOUT });
    await expect(live.getByText(/^ssh -p \d+ root@/).first()).toBeVisible();
  });

  const deployments = await api<{ list: Deployment[] }>(page.request, token, 'get', '/elastic/list');
  const deployment = deployments.list[0];
  if (!deployment) throw new Error('the deployment is not listed');

  await test.step('编辑 to 1 container: one is released and listed in 已释放实例', async () => {
    await page.getByRole('link', { name: '部署列表' }).first().click();
    await page.getByRole('button', { name: `编辑部署 ${NAME}` }).click();
    const dialog = page.getByRole('dialog', { name: `编辑部署“${NAME}”` });
    await dialog.getByLabel('容器数量').fill('1');
    await dialog.getByRole('button', { name: '保存修改' }).click();
    await expect(page.getByText('部署已修改')).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(NAME) })).toContainText('1/1 运行中', { timeout: TRANSITION_TIMEOUT });
    await page.getByRole('link', { name: '已释放实例' }).click();
    await expect(page.getByRole('row', { name: new RegExp(NAME) })).toHaveCount(1, { timeout: TRANSITION_TIMEOUT });
    await expect(page.getByRole('row', { name: new RegExp(NAME) })).toContainText('副本数调整为 1');
  });

  await test.step('锁定: delete is refused (disabled here, 409 from the API) until 解锁; then 删除', async () => {
    await page.getByRole('link', { name: '部署列表' }).first().click();
    await page.getByRole('button', { name: `锁定部署 ${NAME}` }).click();
    await expect(page.getByText('部署已锁定', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: `删除部署 ${NAME}` })).toBeDisabled();
    const refused = await page.request.delete(`/api/v1/elastic/${deployment.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await refused.json()) as { rspmsg: string }).rspmsg).toContain('已锁定');
    await page.getByRole('button', { name: `解锁部署 ${NAME}` }).click();
    await expect(page.getByText('部署已解锁')).toBeVisible();
    await page.getByRole('button', { name: `删除部署 ${NAME}` }).click();
    const confirm = page.getByRole('dialog', { name: `删除部署“${NAME}”？` });
    await expect(confirm).toContainText('磁盘数据删除且无法恢复');
    await confirm.getByRole('button', { name: '删除部署' }).click();
    await expect(page.getByText('部署已删除')).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(NAME) })).toHaveCount(0);
  });
});

test('a time pack is drawn down by a running container while the wallet is not; the rest is refunded as previewed', async ({ page }) => {
  test.setTimeout(240_000);
  const { token } = await signedInWithBalance(page, 200);
  const balance = page.getByRole('status', { name: '账户余额' });

  await test.step('购买时长包: RTX 4090, 10 卡时, the price shown before paying', async () => {
    await page.getByRole('link', { name: '时长包' }).click();
    await page.getByRole('button', { name: '购买时长包' }).first().click();
    const dialog = page.getByRole('dialog', { name: '购买时长包' });
    await dialog.getByRole('combobox', { name: 'GPU 型号' }).click();
    await page.locator('.ant-select-item-option', { hasText: 'RTX 4090 · 按量' }).click();
    await dialog.getByRole('radiogroup', { name: '时长' }).getByText('10 卡时', { exact: true }).click();
    await dialog.getByRole('radiogroup', { name: '有效期' }).getByText('30 天', { exact: true }).click();
    await expect(dialog).toContainText('¥19.80');
    await dialog.getByRole('button', { name: '支付 ¥19.80' }).click();
    await expect(page.getByText('时长包已购买')).toBeVisible();
    await expect(balance).toHaveText('¥180.20');
  });

  await test.step('a container of that model runs: the pack goes down, the balance does not', async () => {
    await api(page.request, token, 'post', '/elastic', { name: 'e2e-时长包', type: 'CONTAINER', imageId: 'pytorch-2.5.1-py3.12-cu124', gpuNum: 1, replicaNum: 1, gpuModelIds: ['rtx4090'] });
    await expect.poll(async () => (await api<{ list: Deployment[] }>(page.request, token, 'get', '/elastic/list')).list[0]?.runningNum, { timeout: TRANSITION_TIMEOUT }).toBe(1);
    await expect
      .poll(async () => (await api<{ list: TimePack[] }>(page.request, token, 'get', '/elastic/time-bundle')).list[0]?.balanceSeconds, { timeout: METERING_TIMEOUT, intervals: [2_000] })
      .toBeLessThan(36_000);
    await page.reload();
    await expect(page.getByRole('row', { name: /RTX 4090/ })).not.toContainText('10 / 10 卡时');
    await expect(balance).toHaveText('¥180.20');
  });

  await test.step('退款: 实付 / 已用部分 / 退回余额 shown, then exactly that returned', async () => {
    const [deployment] = (await api<{ list: Deployment[] }>(page.request, token, 'get', '/elastic/list')).list;
    await api(page.request, token, 'put', `/elastic/${deployment?.id}/stop`);
    const [pack] = (await api<{ list: TimePack[] }>(page.request, token, 'get', '/elastic/time-bundle')).list;
    await page.getByRole('button', { name: /^退款时长包 / }).click();
    const dialog = page.getByRole('dialog', { name: '退款时长包' });
    await expect(dialog).toContainText('实付');
    await expect(dialog).toContainText('¥19.80');
    const preview = await api<{ refund: number }>(page.request, token, 'get', `/elastic/time-bundle/refund?id=${pack?.id}`);
    await dialog.getByRole('button', { name: '确认退款' }).click();
    const refunded = `¥${(preview.refund / 100).toFixed(2)}`;
    await expect(page.getByText(`已退回 ${refunded} 到账户余额`)).toBeVisible();
    await expect(page.getByRole('row', { name: /RTX 4090/ })).toContainText('已退款');
    await expect(balance).toHaveText(`¥${((18_020 + preview.refund) / 100).toFixed(2)}`);
  });
});
