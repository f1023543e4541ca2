import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_OPERATOR_PHONE } from '../playwright.config.js';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

// Every table of every console page is readable at 1440×900: no column off the right edge (issue 17:
// 账单明细 hid 金额, 余额支付 and 代金券抵扣, 我的订单 cut 操作 in half). On a phone a wide table
// scrolls inside itself and the page never scrolls sideways. The pages come from the route table, as
// in phone.spec.ts, and are filled with long real content first.
const consolePagesModule = new URL('../../apps/web/src/router/consolePages.ts', import.meta.url).href;
const { consolePagePaths } = (await import(consolePagesModule)) as { consolePagePaths: () => string[] };

const TRANSITION_TIMEOUT = 30_000;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const HOST = 'hd-a-4090-06';

type Headers = Record<string, string>;

async function ok(answer: ReturnType<APIRequestContext['post']>): Promise<unknown> {
  const response = await answer;
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { result: unknown }).result;
}

async function instanceState(request: APIRequestContext, headers: Headers, instanceId: string): Promise<string> {
  const answer = await request.get(`/api/v1/rental/detail?instanceId=${instanceId}`, { headers });
  const { status, operation } = ((await answer.json()) as { result: { status: string; operation: string | null } }).result;
  return operation ? `${status}:${operation}` : status;
}

/**
 * A renter with something in every list: recharges, a voucher, an invoice, a pay-as-you-go instance run
 * with and without GPUs (bills with long descriptions), a day package, a sub-account with a long
 * nickname, an SSH key and an API token. Returns the pay-as-you-go order's number.
 */
async function seed(request: APIRequestContext, telephone: string): Promise<string> {
  const user = await registerByApi(request, telephone);
  const headers = { authorization: `Bearer ${user.jwtToken}` };
  const { rechargeId } = (await ok(request.post('/api/v1/payment/recharge', { headers, data: { amount: 50_000, channel: 'WXPAY' } }))) as { rechargeId: string };
  expect((await request.post(`/sandbox-pay/${rechargeId}/pay`)).ok()).toBe(true);
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/payment/recharge/${rechargeId}`, { headers })).json()) as { result: { status: string } }).result.status)
    .toBe('SUCCESS');

  const operator = await registerByApi(request, E2E_OPERATOR_PHONE).catch(async () => {
    const login = await request.post('/api/v1/auth/login', { data: { telephone: E2E_OPERATOR_PHONE, password: DEFAULT_PASSWORD, countryCode: 86 } });
    return ((await login.json()) as { result: { jwtToken: string } }).result;
  });
  await ok(
    request.post('/api/v1/admin/vouchers', {
      headers: { authorization: `Bearer ${operator.jwtToken}` },
      data: { telephones: [telephone], name: '宽度检查用的一张名字相当长的代金券（GPU 实例通用）', amount: 1_000, minOrderAmount: 10_000, validDays: 30 },
    }),
  );
  await ok(
    request.put('/api/v1/invoice/info', {
      headers,
      data: { titleType: 'ENTERPRISE', title: '算力港桌面宽度检查用的名字相当长的科技有限公司', taxNo: '91330100MA2XXXXX1Y', email: 'finance@example.com' },
    }),
  );
  await ok(request.post('/api/v1/invoice', { headers, data: { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [rechargeId] } }));

  const name = '宽度检查用的名字相当长的训练实例';
  const usage = (await ok(request.post('/api/v1/rental', { headers, data: { hostId: HOST, gpuNum: 2, imageId: IMAGE, chargingRuleId: 1, name } }))) as {
    instanceId: string;
    orderId: string;
  };
  await ok(request.post('/api/v1/rental', { headers, data: { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 2, rentAmount: 1, name: `${name}（包日）` } }));
  const { instanceId } = usage;
  await expect.poll(() => instanceState(request, headers, instanceId), { timeout: TRANSITION_TIMEOUT }).toBe('PoweredOn');
  await ok(request.post('/api/v1/rental/power_off', { headers, data: { instanceId } }));
  await expect.poll(() => instanceState(request, headers, instanceId), { timeout: TRANSITION_TIMEOUT }).toBe('PoweredOff');
  await ok(request.post('/api/v1/rental/power_on', { headers, data: { instanceId, mode: 'nogpu' } }));
  await expect.poll(() => instanceState(request, headers, instanceId), { timeout: TRANSITION_TIMEOUT }).toBe('PoweredOnNoGPU');
  await ok(request.post('/api/v1/rental/power_off', { headers, data: { instanceId } }));
  await expect.poll(() => instanceState(request, headers, instanceId), { timeout: TRANSITION_TIMEOUT }).toBe('PoweredOff');

  await ok(
    request.post('/api/v1/subuser/create', {
      headers,
      data: {
        username: `wide_${telephone.slice(-6)}`,
        password: 'team2026pass',
        nickname: '算法组的一个名字相当长的子账号',
        permissions: [
          { authorityType: 'CONTAINER', level: 'SELF' },
          { authorityType: 'MIRROR', level: 'ALL' },
          { authorityType: 'INVOICE', level: 'ALL' },
        ],
      },
    }),
  );
  await ok(
    request.post('/api/v1/ssh_key', {
      headers,
      data: { keyName: '我的笔记本电脑上的一把名字很长的密钥', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@example-laptop' },
    }),
  );
  await ok(request.post('/api/v1/settings/token', { headers, data: { name: '训练流水线自动化脚本用的令牌' } }));
  return usage.orderId;
}

/** Waits until the page shows its content: no route chunk or skeleton still loading. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('main .slg-page-loading, main .ant-skeleton')).toHaveCount(0);
}

/** Each table's scrolling box: how wide its content is against how wide it shows, with its headers. */
async function tableWidths(page: Page) {
  return page.locator('.ant-table-content, .ant-table-body').evaluateAll((boxes) =>
    boxes.map((box) => ({
      scroll: box.scrollWidth,
      client: box.clientWidth,
      headers: Array.from(box.closest('.ant-table-wrapper')?.querySelectorAll('thead th') ?? [], (cell) => cell.textContent ?? '').join(' | '),
    })),
  );
}

let telephone = '';
let usageOrderNo = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  telephone = freshPhone();
  usageOrderNo = await seed(request, telephone);
});

async function signIn(page: Page) {
  await page.goto('/login');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  await expect(page).toHaveURL(/\/ctrl-overview\/overview$/);
}

const pagesToCheck = () => [...consolePagePaths(), `/ctrl-cost-center/cost-center/order-detail?orderNo=${usageOrderNo}`];

test('at 1440×900 every column of every table is on the screen', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  let tables = 0;
  for (const path of pagesToCheck()) {
    await test.step(path, async () => {
      await page.goto(path);
      await settled(page);
      for (const table of await tableWidths(page)) {
        tables += 1;
        expect.soft(table.scroll, `${path}: columns off the right edge of [${table.headers}]`).toBeLessThanOrEqual(table.client + 1);
      }
    });
  }
  // The seeded content reached the lists (a check that could not fail on empty pages is no check).
  expect(tables).toBeGreaterThanOrEqual(15);
});

test('on a phone the tables scroll inside themselves, never the page', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  for (const path of pagesToCheck()) {
    await test.step(path, async () => {
      await page.goto(path);
      await settled(page);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
      expect.soft(widths.scroll, `${path}: the page is wider than the screen`).toBeLessThanOrEqual(widths.viewport);
    });
  }
});
