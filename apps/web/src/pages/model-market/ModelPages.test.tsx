/** 模型中心, 文本模型 and 视觉模型: the catalogue's cards, its filters and 体验. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToastInstance, type ToastApi } from '../../api/toast';
import type { SubUserInfoDto } from '../../api/user';
import { useUserStore } from '../../stores/user';
import { buttonByText, callsTo, mockApi, page, renderPage } from '../ctrl-cost-center/testing';
import { curlSample, formatContextLength, formatPricePerMillion, pythonSample } from './format';
import ModelCenterPage from './model-center/index';
import { QWEN, TINY, VL } from './testing';
import TextModelPage from './text-model/index';
import VisualModelPage from './visual-model/index';

const toastOpen = vi.fn<ToastApi['open']>();
beforeEach(() => {
  toastOpen.mockReset();
  setToastInstance({ open: toastOpen, destroy: vi.fn() });
});
afterEach(() => {
  cleanup();
  useUserStore.getState().clear();
  vi.restoreAllMocks();
});

const queryOf = (call: [string | URL | Request, RequestInit?] | undefined) => Object.fromEntries(new URL(String(call?.[0]), 'http://x').searchParams);

function card(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`article[aria-label="${name}"]`);
  if (!found) throw new Error(`no card ${name}`);
  return found;
}

/** The value shown under a label of a card's facts or prices. */
function fact(container: HTMLElement, label: string): string | null | undefined {
  const term = within(container).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

const CENTER = '/model-market/model-center/modelCenter';

describe('模型中心', () => {
  it('shows each model with its facts, its prices per million tokens and 测试模型 on the test model', async () => {
    const api = mockApi({ 'GET /models': () => page([TINY, QWEN]) });
    renderPage(<ModelCenterPage />, CENTER);
    await screen.findByText('SLG Tiny（测试）');
    const tiny = card('SLG Tiny（测试）');
    expect(within(tiny).getByText('测试模型')).toBeTruthy();
    expect(within(tiny).getByText('文本模型')).toBeTruthy();
    expect(within(tiny).getByText('提供方：算力港')).toBeTruthy();
    expect(within(tiny).getByText('平台生成的测试模型，回答没有意义')).toBeTruthy();
    expect(within(tiny).getByText('GGUF')).toBeTruthy();
    expect(fact(tiny, '输入价格')).toBe('¥1.00 / 百万 token');
    expect(fact(tiny, '输出价格')).toBe('¥2.00 / 百万 token');
    expect(fact(tiny, '上下文长度')).toBe('2K');
    expect(fact(tiny, '参数规模')).toBe('0.1M');
    expect(fact(tiny, '许可协议')).toBe('MIT');
    expect(within(tiny).getByText('slg-tiny-test')).toBeTruthy();

    const qwen = card('Qwen2.5-7B-Instruct');
    expect(within(qwen).queryByText('测试模型')).toBeNull();
    expect(fact(qwen, '输入价格')).toBe('¥0.50 / 百万 token');
    expect(fact(qwen, '输出价格')).toBe('¥1.50 / 百万 token');
    expect(fact(qwen, '上下文长度')).toBe('32K');
    expect(fact(qwen, '许可协议')).toBe('Apache-2.0');
    expect(screen.getByText('共 2 个')).toBeTruthy();
    expect(queryOf(callsTo(api.fetchMock, 'GET', '/models')[0])).toEqual({ page: '1', pageSize: '10' });
  });

  it('filters by type and searches by name, in the query of the call and of the page', async () => {
    const api = mockApi({ 'GET /models': () => page([TINY, QWEN, VL]) });
    const { router } = renderPage(<ModelCenterPage />, CENTER);
    await screen.findByText('Qwen2.5-VL-7B');
    expect(fact(card('Qwen2.5-VL-7B'), '输入价格')).toBe('免费');
    expect(within(card('Qwen2.5-VL-7B')).getByText('视觉模型')).toBeTruthy();

    fireEvent.click(screen.getByText('视觉', { selector: '.ant-segmented-item-label, .ant-segmented-item-label *' }));
    await waitFor(() => expect(queryOf(callsTo(api.fetchMock, 'GET', '/models').at(-1))).toEqual({ page: '1', pageSize: '10', type: 'visual' }));
    expect(router.state.location.search).toBe('?type=visual');

    const search = screen.getByLabelText('按名称搜索', { selector: 'input' });
    fireEvent.change(search, { target: { value: ' qwen ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(queryOf(callsTo(api.fetchMock, 'GET', '/models').at(-1))).toEqual({ page: '1', pageSize: '10', type: 'visual', name: 'qwen' }));
    expect(new URLSearchParams(router.state.location.search).get('name')).toBe('qwen');

    fireEvent.click(screen.getByText('全部', { selector: '.ant-segmented-item-label, .ant-segmented-item-label *' }));
    await waitFor(() => expect(queryOf(callsTo(api.fetchMock, 'GET', '/models').at(-1))).toEqual({ page: '1', pageSize: '10', name: 'qwen' }));
  });

  it('goes to the next page', async () => {
    const api = mockApi({ 'GET /models': () => page([TINY], 25) });
    renderPage(<ModelCenterPage />, CENTER);
    await screen.findByText('共 25 个');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(queryOf(callsTo(api.fetchMock, 'GET', '/models').at(-1))).toEqual({ page: '2', pageSize: '10' }));
  });

  it('体验 opens 模型对话 with the model once signed in; a visitor goes through the sign-in and back', async () => {
    mockApi({ 'GET /models': () => page([TINY]) });
    const view = renderPage(<ModelCenterPage />, CENTER);
    const link = await screen.findByLabelText('体验 SLG Tiny（测试）');
    expect(link.getAttribute('href')).toBe('/model-market/modelMarket/chat?model=slg-tiny-test');
    fireEvent.click(link);
    await waitFor(() => expect(`${view.router.state.location.pathname}${view.router.state.location.search}`).toBe('/model-market/modelMarket/chat?model=slg-tiny-test'));
    cleanup();

    // Signed out: the catalogue is public.
    const api = mockApi({ 'GET /models': () => page([TINY]) });
    useUserStore.getState().clear();
    renderPage(<ModelCenterPage />, CENTER);
    const visitorLink = await screen.findByLabelText('体验 SLG Tiny（测试）');
    expect(visitorLink.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent('/model-market/modelMarket/chat?model=slg-tiny-test')}`);
    const [, init] = callsTo(api.fetchMock, 'GET', '/models')[0] ?? [];
    expect(new Headers(init?.headers).get('Authorization')).toBeNull();
  });

  it('a sub-account without 模型部署 sees the catalogue, with 体验 turned off', async () => {
    mockApi({ 'GET /models': () => page([QWEN]) });
    useUserStore.getState().setSession({ jwtToken: 'jwt', refreshToken: 'refresh' }, 2);
    useUserStore.getState().setUserInfo({ kind: 'sub', info: { permissions: ['CONTAINER'] } as unknown as SubUserInfoDto });
    renderPage(<ModelCenterPage />, CENTER);
    const button = await screen.findByLabelText('体验 Qwen2.5-7B-Instruct');
    expect(button.closest('button')?.disabled).toBe(true);
  });

  it('says so when there is none, and shows a failed load with 重试', async () => {
    let fail = true;
    mockApi({ 'GET /models': () => (fail ? new Response('{}', { status: 500 }) : page([])) });
    renderPage(<ModelCenterPage />, CENTER);
    expect(await screen.findByText('模型列表加载失败')).toBeTruthy();
    fail = false;
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('暂无模型')).toBeTruthy();
    // The failure is shown in the page, not again as a toast.
    expect(toastOpen).not.toHaveBeenCalled();
  });
});

describe('文本模型 and 视觉模型', () => {
  it('文本模型 lists the text models only, without the type filter, each with 体验', async () => {
    const api = mockApi({ 'GET /models': () => page([QWEN]) });
    renderPage(<TextModelPage />, '/model-market/modelMarket/textModel');
    await screen.findByText('Qwen2.5-7B-Instruct');
    expect(queryOf(callsTo(api.fetchMock, 'GET', '/models')[0])).toEqual({ page: '1', pageSize: '10', type: 'text' });
    expect(document.querySelector('.ant-segmented')).toBeNull();
    expect(screen.getByLabelText('体验 Qwen2.5-7B-Instruct').getAttribute('href')).toBe('/model-market/modelMarket/chat?model=qwen2.5-7b-instruct');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('文本模型');
  });

  it('视觉模型 lists the visual models only', async () => {
    const api = mockApi({ 'GET /models': () => page([VL]) });
    renderPage(<VisualModelPage />, '/model-market/modelMarket/visualModel?name=vl');
    await screen.findByText('Qwen2.5-VL-7B');
    expect(queryOf(callsTo(api.fetchMock, 'GET', '/models')[0])).toEqual({ page: '1', pageSize: '10', type: 'visual', name: 'vl' });
    expect(screen.getByLabelText('体验 Qwen2.5-VL-7B').getAttribute('href')).toBe('/model-market/modelMarket/chat?model=qwen2.5-vl-7b');
  });

  it('says 没有匹配的模型 for a search that finds nothing', async () => {
    mockApi({ 'GET /models': () => page([]) });
    renderPage(<VisualModelPage />, '/model-market/modelMarket/visualModel?name=none');
    expect(await screen.findByText('没有匹配的模型')).toBeTruthy();
  });
});

describe('formats', () => {
  it('prices per million tokens and context lengths', () => {
    expect(formatPricePerMillion(0)).toBe('免费');
    expect(formatPricePerMillion(1)).toBe('¥0.01 / 百万 token');
    expect(formatPricePerMillion(120000)).toBe('¥1,200.00 / 百万 token');
    expect(formatContextLength(4096)).toBe('4K');
    expect(formatContextLength(128000)).toBe('128K');
    expect(formatContextLength(3500)).toBe('3,500');
  });

  it('code samples quote what they embed', () => {
    const params = { baseUrl: 'https://slg.example.com/v1', model: "it's", maxTokens: 512, temperature: 0.7, apiKey: 'slg_…', prompt: '你好' };
    expect(curlSample(params)).toContain(`-d '{"model":"it'\\''s",`);
    expect(curlSample(params)).toContain('curl https://slg.example.com/v1/chat/completions');
    expect(pythonSample(params)).toContain('client = OpenAI(base_url="https://slg.example.com/v1", api_key="slg_…")');
    expect(pythonSample(params)).toContain('model="it\'s",');
  });
});
