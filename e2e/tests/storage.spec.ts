import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Page } from '@playwright/test';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

const STORAGE_PATH = '/ctrl-file-storage/file-storage';
/** A small tus chunk (the page reads `window.__SLG_TUS_CHUNK_SIZE__`), so the big file takes 12 requests. */
const CHUNK = 256 * 1024;
const BIG = randomBytes(12 * CHUNK);
const SMALL = Buffer.from('算力港 文件存储 e2e\n', 'utf8');

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function contentOf(download: Download): Promise<Buffer> {
  const path = await download.path();
  return readFile(path);
}

/** The row (or phone card) of an entry in the listing. */
function entry(page: Page, name: string) {
  return page.locator('.ant-table-tbody tr[data-row-key], .slg-fs-card').filter({ has: page.getByText(name, { exact: true }) });
}

test('文件存储: initialise a region, upload two files (one paused and resumed), folder, rename, download, delete', async ({ page }) => {
  test.setTimeout(120_000);
  const telephone = freshPhone();
  await registerByApi(page.request, telephone);
  await page.addInitScript((chunk) => {
    (window as unknown as { __SLG_TUS_CHUNK_SIZE__: number }).__SLG_TUS_CHUNK_SIZE__ = chunk;
  }, CHUNK);
  await page.goto(`/login?redirect=${encodeURIComponent(STORAGE_PATH)}`);
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
  await expect(page).toHaveURL(new RegExp(STORAGE_PATH));

  await test.step('免费初始化 the first region: the usage bar against 200 GB with 20 GB free', async () => {
    const init = page.getByRole('region', { name: /尚未初始化文件存储/ });
    await expect(init).toContainText('每个地区免费 20 GB');
    await expect(init).toContainText('/root/slg-fs');
    await init.getByRole('button', { name: '免费初始化' }).click();
    await expect(page.getByText('已用 0 B / 配额 200 GB')).toBeVisible();
    await expect(page.getByRole('tab', { selected: true })).toContainText('已初始化');
    await expect(page.getByText('这个文件夹是空的')).toBeVisible();
  });

  // The second chunk of big.bin waits here until the test has pressed 暂停: the pause is seen mid-upload.
  let releaseHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });
  let holding = false;
  let patchesWhilePaused = 0;
  let paused = false;
  await page.route('**/api/v1/storage/tus/**', async (route) => {
    const request = route.request();
    if (request.method() === 'PATCH') {
      if (paused) patchesWhilePaused += 1;
      if (!holding && Number(request.headers()['upload-offset']) === CHUNK) {
        holding = true;
        await held;
      }
    }
    // A request the pause aborted can no longer be continued.
    await route.continue().catch(() => undefined);
  });

  await test.step('上传文件: two files at once, big.bin paused mid-way and resumed', async () => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: '上传文件' }).click();
    await (await chooser).setFiles([
      { name: 'big.bin', mimeType: 'application/octet-stream', buffer: BIG },
      { name: 'small.txt', mimeType: 'text/plain', buffer: SMALL },
    ]);
    const uploads = page.getByRole('list', { name: '上传列表' });
    const big = uploads.getByRole('listitem', { name: 'big.bin' });
    const small = uploads.getByRole('listitem', { name: 'small.txt' });
    await expect(small).toContainText('已完成');
    await expect.poll(() => holding).toBe(true);
    await expect(big).toContainText('上传中');

    await page.getByRole('button', { name: '暂停上传 big.bin' }).click();
    paused = true;
    releaseHeld();
    await expect(big).toContainText('已暂停');
    await expect(big.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow', '100');
    expect(patchesWhilePaused).toBe(0);

    paused = false;
    await page.getByRole('button', { name: '继续上传 big.bin' }).click();
    await expect(big).toContainText('已完成', { timeout: 30_000 });
    await expect(page.getByText('已完成 2/2')).toBeVisible();
    // The listing refreshed by itself.
    await expect(entry(page, 'big.bin')).toContainText('3 MB');
    await expect(entry(page, 'small.txt')).toBeVisible();
  });
  await page.unroute('**/api/v1/storage/tus/**');

  await test.step('下载 the resumed file: the same bytes as uploaded', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: '下载 big.bin' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('big.bin');
    expect(sha256(await contentOf(file))).toBe(sha256(BIG));
  });

  await test.step('新建文件夹 runs, open it, back through the breadcrumb', async () => {
    await page.getByRole('button', { name: '新建文件夹' }).click();
    const dialog = page.getByRole('dialog', { name: '新建文件夹' });
    await dialog.getByLabel('文件夹名称').fill('runs');
    await dialog.getByRole('button', { name: '新建' }).click();
    await expect(page.getByText('文件夹已创建')).toBeVisible();
    await page.getByRole('link', { name: '打开文件夹 runs' }).click();
    await expect(page).toHaveURL(/path=%2Fruns/);
    const crumbs = page.getByRole('navigation', { name: '文件夹路径' });
    await expect(crumbs.locator('[aria-current="location"]')).toHaveText('runs');
    await expect(page.getByText('这个文件夹是空的')).toBeVisible();
    await crumbs.getByRole('link', { name: '根目录' }).click();
    await expect(entry(page, 'big.bin')).toBeVisible();
    // Folders first.
    await expect(page.locator('.ant-table-tbody tr[data-row-key]').first()).toContainText('runs');
  });

  await test.step('重命名 small.txt to 说明.txt, then download it', async () => {
    await page.getByRole('button', { name: '重命名 small.txt' }).click();
    const dialog = page.getByRole('dialog', { name: '重命名「small.txt」' });
    await dialog.getByLabel('新名称').fill('说明.txt');
    await dialog.getByRole('button', { name: '重命名' }).click();
    await expect(entry(page, '说明.txt')).toBeVisible();
    await expect(entry(page, 'small.txt')).toHaveCount(0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: '下载 说明.txt' }).click();
    expect((await contentOf(await download)).toString('utf8')).toBe(SMALL.toString('utf8'));
  });

  await test.step('on a phone (390 × 844): cards, nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.locator('.slg-fs-card')).toHaveCount(3);
    await expect(page.locator('.ant-table')).toHaveCount(0);
    const widths = await page.evaluate(() => {
      const main = document.querySelector('main');
      return { document: document.documentElement.scrollWidth - window.innerWidth, main: main ? main.scrollWidth - main.clientWidth : 0 };
    });
    expect(widths).toEqual({ document: 0, main: 0 });
  });

  await test.step('删除: the confirmation names what is lost', async () => {
    await page.getByRole('button', { name: '删除 runs' }).click();
    let dialog = page.getByRole('dialog', { name: '删除文件夹' });
    await expect(dialog).toContainText('删除文件夹「runs」及其中全部文件，无法恢复。');
    await dialog.getByRole('button', { name: '删除' }).click();
    await expect(entry(page, 'runs')).toHaveCount(0);

    await page.getByRole('button', { name: '删除 big.bin' }).click();
    dialog = page.getByRole('dialog', { name: '删除文件' });
    await expect(dialog).toContainText('删除文件「big.bin」（3 MB），无法恢复。');
    await dialog.getByRole('button', { name: '删除' }).click();
    await expect(entry(page, 'big.bin')).toHaveCount(0);
    await expect(entry(page, '说明.txt')).toBeVisible();
  });
});
