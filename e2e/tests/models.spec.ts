import { expect, test } from '@playwright/test';
import { DEFAULT_PASSWORD, freshPhone, registerByApi, signInWithPassword } from './fixtures.js';

/**
 * 模型 (issue 23): a visitor browses 模型中心, signs in from 体验, and 模型对话 streams an answer of the
 * test model (llama.cpp in the server) with its tokens and cost. Model instances are not built yet.
 */
test('模型: 模型中心 logged out → 体验 signs in → 模型对话 streams an answer with its tokens and cost', async ({ page }) => {
  test.setTimeout(90_000);
  const telephone = freshPhone();
  await registerByApi(page.request, telephone);

  await test.step('模型中心 for a visitor: the test model, its prices per million tokens, marked 测试模型', async () => {
    await page.goto('/model-market/model-center/modelCenter');
    const card = page.getByRole('article', { name: /SLG Tiny/ });
    await expect(card).toContainText('测试模型');
    await expect(card).toContainText('/ 百万 token');
    await expect(card).toContainText('slg-tiny-test');
    await card.getByRole('link', { name: /登录后体验|体验/ }).click();
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await signInWithPassword(page, telephone, DEFAULT_PASSWORD);
    await expect(page).toHaveURL(/\/model-market\/modelMarket\/chat/);
  });

  await test.step('模型对话: the answer streams in, then its tokens and cost (the free tokens cover it)', async () => {
    await expect(page.getByText('这是平台生成的测试模型，回答没有意义，仅用于体验流程；token 计量和计费是真实的。')).toBeVisible();
    await page.getByLabel('输入消息').fill('你好，介绍一下算力港');
    await page.getByRole('button', { name: '发送' }).click();
    const conversation = page.getByRole('log').or(page.getByLabel('对话记录')).first();
    await expect(conversation).toContainText('你好，介绍一下算力港');
    await expect(conversation).toContainText(/输入 \d+ token · 输出 \d+ token/, { timeout: 30_000 });
    await expect(conversation).toContainText(/免费额度抵扣 \d+ token/);
  });

  await test.step('代码示例 names this model and the platform’s /v1', async () => {
    await page.getByRole('button', { name: '代码示例' }).click();
    const drawer = page.getByRole('dialog', { name: '代码示例' });
    await expect(drawer).toContainText('slg-tiny-test');
    await expect(drawer).toContainText('/v1');
  });
});
