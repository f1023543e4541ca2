import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_OPERATOR_PHONE } from '../playwright.config.js';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

// The console pages come from the route table (routes with a page and console meta), so a new page is
// checked without touching this file. Imported by URL so that the e2e typecheck does not walk into the
// console's sources (its tsconfig has no JSX).
const consolePagesModule = new URL('../../apps/web/src/router/consolePages.ts', import.meta.url).href;
const { consolePagePaths } = (await import(consolePagesModule)) as { consolePagePaths: () => string[] };
const CONSOLE_PAGES = consolePagePaths();

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

/** What scrolls sideways: the document, and the console's main scroll container. */
async function widths(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    return {
      document: { scroll: document.documentElement.scrollWidth, viewport: window.innerWidth },
      main: main ? { scroll: main.scrollWidth, client: main.clientWidth } : null,
    };
  });
}

/** Waits until the page shows its content: no route chunk or skeleton still loading. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('main .slg-page-loading, main .ant-skeleton')).toHaveCount(0);
}

/** Content on the pages: a paid recharge, a voucher, invoice information and an application. */
async function seedMoney(request: APIRequestContext, telephone: string): Promise<void> {
  const user = await registerByApi(request, telephone);
  const auth = { authorization: `Bearer ${user.jwtToken}` };
  const operator = await registerByApi(request, E2E_OPERATOR_PHONE).catch(async () => {
    const login = await request.post('/api/v1/auth/login', { data: { telephone: E2E_OPERATOR_PHONE, password: DEFAULT_PASSWORD, countryCode: 86 } });
    return ((await login.json()) as { result: { jwtToken: string } }).result;
  });

  const recharge = await request.post('/api/v1/payment/recharge', { headers: auth, data: { amount: 12_345, channel: 'WXPAY' } });
  expect(recharge.ok()).toBe(true);
  const { rechargeId } = ((await recharge.json()) as { result: { rechargeId: string } }).result;
  expect((await request.post(`/sandbox-pay/${rechargeId}/pay`)).ok()).toBe(true);
  await expect
    .poll(async () => {
      const status = await request.get(`/api/v1/payment/recharge/${rechargeId}`, { headers: auth });
      return ((await status.json()) as { result: { status: string } }).result.status;
    })
    .toBe('SUCCESS');

  const vouchers = await request.post('/api/v1/admin/vouchers', {
    headers: { authorization: `Bearer ${operator.jwtToken}` },
    data: { telephones: [telephone], name: '手机端检查用的一张名字相当长的代金券（GPU 实例通用）', amount: 3_000, minOrderAmount: 10_000, validDays: 30 },
  });
  expect(vouchers.ok()).toBe(true);

  const profile = await request.put('/api/v1/invoice/info', {
    headers: auth,
    data: { titleType: 'ENTERPRISE', title: '算力港手机端检查科技有限公司', taxNo: '91330100MA2XXXXX1Y', email: 'finance@example.com' },
  });
  expect(profile.ok()).toBe(true);
  const invoice = await request.post('/api/v1/invoice', { headers: auth, data: { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [rechargeId] } });
  expect(invoice.ok()).toBe(true);
}

test('the public header shows every link of its navigation and the account buttons on a phone', async ({ page }) => {
  for (const path of ['/home', '/about']) {
    await page.goto(path);
    const nav = page.getByRole('navigation', { name: '主导航' });
    const links = nav.getByRole('link');
    await expect(links.last()).toHaveText('模型中心');
    // Every link whole on the screen, none clipped by the navigation's own scrolling.
    for (const link of await links.all()) await expect(link, `${path}: ${await link.textContent()}`).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('link', { name: '注册', exact: true })).toBeInViewport({ ratio: 1 });
    const overflow = await nav.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow, `${path}: the navigation scrolls sideways`).toBe(0);
  }
});

test.describe('phone width (390×844)', () => {
  test.beforeEach(async ({ page, request }) => {
    const telephone = freshPhone();
    await seedMoney(request, telephone);
    await page.goto('/login');
    await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
    await expect(page).toHaveURL(/\/ctrl-overview\/overview$/);
  });

  test('no console page scrolls sideways', async ({ page }) => {
    test.setTimeout(180_000);
    expect(CONSOLE_PAGES.length).toBeGreaterThan(0);
    for (const path of CONSOLE_PAGES) {
      await test.step(path, async () => {
        await page.goto(path);
        await settled(page);
        const measured = await widths(page);
        expect.soft(measured.document.scroll, `${path}: the page is wider than the screen`).toBeLessThanOrEqual(measured.document.viewport);
        expect.soft(measured.main, `${path}: no main scroll container`).not.toBeNull();
        if (measured.main) {
          expect.soft(measured.main.scroll, `${path}: the main container scrolls sideways`).toBeLessThanOrEqual(measured.main.client);
        }
      });
    }
  });

  test('创建实例 keeps the sum and 下一步 on the screen while the form scrolls (issue 17)', async ({ page }) => {
    await page.goto('/ctrl-container-instances/createInstances?hostId=bj-a-3090-01&gpuNum=1&chargingRuleId=1');
    await settled(page);
    const bar = page.getByRole('region', { name: '费用与下一步' });
    const next = bar.getByRole('button', { name: '下一步：确认订单' });
    await expect(bar).toContainText(/¥[\d.,]+\/时/);
    await expect(next).toBeInViewport();
    // Down at the end of the form the bar is still there.
    await page.getByLabel('实例名称').scrollIntoViewIfNeeded();
    await expect(next).toBeInViewport();
    await expect(next).toBeEnabled();
    await next.click();
    await expect(page).toHaveURL(/\/ctrl-container-instances\/confirm-order\?/);
  });

  test('the sidebar is a drawer that navigates and closes; balance, colour mode and 退出登录 stay reachable', async ({ page }) => {
    await settled(page);
    // No sidebar column beside the page at this width.
    await expect(page.locator('.slg-dashboard-sider')).toHaveCount(0);
    await expect(page.getByRole('status', { name: '账户余额' })).toBeVisible();
    await expect(page.getByRole('button', { name: '颜色模式' })).toBeVisible();

    await page.getByRole('button', { name: '打开菜单' }).click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('navigation', { name: '控制台菜单' }) });
    await expect(drawer).toBeVisible();
    // The drawer lies over the page from the left edge; the page under it keeps its full width.
    // (It slides in: poll until the opening animation has ended.)
    const menu = drawer.getByRole('navigation', { name: '控制台菜单' });
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    expect((await page.locator('main').boundingBox())?.width).toBe(PHONE.width);

    await drawer.getByRole('menuitem', { name: '费用中心' }).click();
    await drawer.getByRole('link', { name: '代金券' }).click();
    await expect(page).toHaveURL(/\/ctrl-cost-center\/cost-center\/voucher$/);
    await expect(page.getByRole('navigation', { name: '控制台菜单' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: '代金券' })).toBeVisible();

    await page.getByRole('button', { name: '账号菜单' }).click();
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login/);
  });
});
