import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { api, DEFAULT_PASSWORD, freshPhone, operatorToken, registerByApi, signInWithPassword, signOut } from './fixtures.js';

/**
 * 数据集 (issue 22): a folder of 文件存储 shared from the file manager → under review in 我的共享 → the
 * operator approves it (through the API; the operator console comes later) → another user finds it in
 * 共享广场, browses and downloads from it, and favourites it. The machines' mounts are in docker.spec.ts.
 */
test('数据集: share a folder from 文件存储 → 审核中 → the operator approves → another user finds it, downloads from it and favourites it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const sharer = freshPhone();
  const name = `e2e-${Date.now().toString(36)}`;
  const { jwtToken: sharerToken } = await registerByApi(request, sharer);
  await api(request, sharerToken, 'post', '/storage/init', { zoneId: 'bj-a' });
  for (const [path, content] of [['/mnist/train/0001.txt', '7'], ['/mnist/labels.csv', 'id,label\n1,7\n']] as const) {
    const put = await request.put(`/api/v1/storage/file?zoneId=bj-a&path=${encodeURIComponent(path)}`, { headers: { Authorization: `Bearer ${sharerToken}`, 'Content-Type': 'application/octet-stream' }, data: Buffer.from(content) });
    expect(put.status()).toBe(200);
  }

  await page.goto('/login?redirect=%2Fctrl-file-storage%2Ffile-storage');
  await signInWithPassword(page, sharer, DEFAULT_PASSWORD);

  await test.step('共享 on the folder in 文件存储: the dialog comes with the region and the folder, and submits for review', async () => {
    await page.getByRole('button', { name: '共享 mnist 为数据集' }).click();
    const dialog = page.getByRole('dialog', { name: '共享数据集' });
    await expect(dialog.getByLabel('文件夹')).toHaveValue('/mnist');
    await dialog.getByLabel('名称').fill(name);
    await dialog.getByLabel('描述').fill('两张手写数字样例和标签，e2e 共享');
    await dialog.getByRole('button', { name: '提交审核' }).click();
    await expect(page.getByText('已提交共享，数据集正在审核中，通过后其他用户即可看到和使用')).toBeVisible();
  });

  await test.step('我的共享 shows it 审核中', async () => {
    await page.goto('/ctrl-data-set/data-set/shared-data?tab=mine');
    const card = page.getByRole('article', { name });
    await expect(card).toContainText('审核中');
    await expect(card).toContainText('/root/slg-pub/' + name);
  });

  const datasetId = (await api<{ list: { id: number; name: string }[] }>(request, sharerToken, 'get', '/share-data/list/me')).list.find((item) => item.name === name)?.id;
  expect(datasetId).toBeDefined();

  await test.step('another user does not see it before the review', async () => {
    const anonymous = await request.get(`/api/v1/share-data/list?name=${name}`);
    expect(((await anonymous.json()) as { result: { total: number } }).result.total).toBe(0);
  });

  await test.step('the operator approves it', async () => {
    await api(request, await operatorToken(request), 'post', `/admin/share-data/${datasetId}/approve`);
  });

  await signOut(page);
  const finder = freshPhone();
  await registerByApi(request, finder);
  await page.goto('/login?redirect=%2Fctrl-data-set%2Fdata-set%2Fshared-data');
  await signInWithPassword(page, finder, DEFAULT_PASSWORD);

  await test.step('共享广场: found by name, browsed, a file downloaded', async () => {
    await page.getByPlaceholder('搜索名称或描述').fill(name);
    await page.getByPlaceholder('搜索名称或描述').press('Enter');
    const card = page.getByRole('article', { name });
    await expect(card).toContainText('两张手写数字样例和标签');
    await card.getByRole('button', { name: '浏览' }).click();
    const drawer = page.getByRole('dialog', { name: `浏览「${name}」` });
    await expect(drawer).toContainText('labels.csv');
    const download = page.waitForEvent('download');
    await drawer.getByRole('button', { name: /下载 labels\.csv/ }).click();
    expect((await readFile(await (await download).path())).toString('utf8')).toBe('id,label\n1,7\n');
    await drawer.getByRole('button', { name: /关闭|Close/ }).first().click();
  });

  await test.step('收藏 it: it is in 我的收藏', async () => {
    await page.getByRole('button', { name: `收藏 ${name}` }).click();
    await expect(page.getByText('已收藏，创建实例时可选择挂载')).toBeVisible();
    await page.getByRole('tab', { name: '我的收藏' }).click();
    await expect(page.getByRole('article', { name })).toBeVisible();
    await expect(page.getByRole('button', { name: `取消收藏 ${name}` })).toBeVisible();
  });
});
