/** 模型对话: the choice of model, the streamed answer with its usage, 停止, errors and the code samples. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../api/client';
import { setToastInstance, type ToastApi } from '../../../api/toast';
import { useUserStore } from '../../../stores/user';
import { buttonByText, buttonsByText, findDialog, linksByText, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { openAiError, QWEN, sseBody, TINY } from '../testing';
import ModelChatPage from './index';

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

const CHAT = '/model-market/modelMarket/chat';

type FetchMock = ReturnType<typeof mockApi>['fetchMock'];

function chatCalls(fetchMock: FetchMock) {
  return fetchMock.mock.calls.filter(([input]) => new URL(String(input), 'http://localhost').pathname === '/v1/chat/completions');
}

function bodyOf(call: [string | URL | Request, RequestInit?] | undefined): Record<string, unknown> {
  return JSON.parse(String(call?.[1]?.body)) as Record<string, unknown>;
}

function chatApi(chat: Handler) {
  return mockApi({ 'GET /models': () => page([TINY, QWEN]), 'POST /v1/chat/completions': chat });
}

/** The answers on screen, in order. */
function answers(): string[] {
  return [...document.querySelectorAll('.slg-chat-turn--assistant [data-testid="chat-answer"]')].map((element) => element.textContent ?? '');
}

function lastAnswerTurn(): HTMLElement {
  const turns = document.querySelectorAll<HTMLElement>('.slg-chat-turn--assistant');
  const last = turns[turns.length - 1];
  if (!last) throw new Error('no answer');
  return last;
}

async function ask(question: string) {
  const input = await screen.findByLabelText('输入消息');
  fireEvent.change(input, { target: { value: question } });
  fireEvent.click(buttonByText('发送'));
}

describe('模型对话', () => {
  it('streams the answer piece by piece, then shows its tokens and cost from the usage chunk', async () => {
    const stream = sseBody();
    const api = chatApi((_url, init) => stream.response(init?.signal));
    renderPage(<ModelChatPage />, `${CHAT}?model=qwen2.5-7b-instruct`);
    await screen.findByText('Qwen2.5-7B-Instruct', { selector: '.ant-select-content *, .ant-select-content, .ant-select-selection-item, .ant-select-selection-item *' });
    // Not the test model: no warning.
    expect(screen.queryByText(/这是平台生成的测试模型/)).toBeNull();

    await ask('介绍一下你自己');
    await waitFor(() => expect(chatCalls(api.fetchMock)).toHaveLength(1));
    const [input, init] = chatCalls(api.fetchMock)[0] ?? [];
    expect(String(input)).toBe('/v1/chat/completions');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer jwt');
    expect(bodyOf(chatCalls(api.fetchMock)[0])).toEqual({
      model: 'qwen2.5-7b-instruct',
      messages: [{ role: 'user', content: '介绍一下你自己' }],
      max_tokens: 512,
      temperature: 0.7,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(screen.getByText('介绍一下你自己')).toBeTruthy();
    expect(await screen.findByText('等待模型回答…')).toBeTruthy();
    expect(buttonByText('停止')).toBeTruthy();

    stream.data({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    stream.delta('我是');
    await waitFor(() => expect(answers()).toEqual(['我是']));
    // A piece split across two reads of the stream.
    stream.write('data: {"choices":[{"index":0,"delta":{"content":"通义');
    stream.write('千问"},"finish_reason":null}]}\n\n');
    await waitFor(() => expect(answers()).toEqual(['我是通义千问']));
    expect(within(lastAnswerTurn()).getByText('生成中…')).toBeTruthy();

    stream.finish();
    stream.usage({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17, cost_fen: 3, free_tokens: 0 });
    stream.done();
    expect(await screen.findByText('输入 12 token · 输出 5 token')).toBeTruthy();
    expect(screen.getByText('费用 ¥0.03')).toBeTruthy();
    expect(screen.queryByText(/免费额度抵扣/)).toBeNull();
    expect(buttonsByText('停止')).toHaveLength(0);
    expect(within(lastAnswerTurn()).queryByText('生成中…')).toBeNull();
  });

  it('says how many free tokens an answer used, and sends the conversation, the system prompt and the settings', async () => {
    const streams = [sseBody(), sseBody()];
    let call = 0;
    const api = chatApi((_url, init) => (streams[call++] ?? sseBody()).response(init?.signal));
    renderPage(<ModelChatPage />, `${CHAT}?model=slg-tiny-test`);
    // The test model: its answers mean nothing, its tokens and billing are real.
    expect(await screen.findByText('这是平台生成的测试模型，回答没有意义，仅用于体验流程；token 计量和计费是真实的。')).toBeTruthy();

    fireEvent.click(screen.getByText('系统提示词'));
    fireEvent.change(await screen.findByLabelText('系统提示词', { selector: 'textarea' }), { target: { value: '你是简洁的助手' } });
    fireEvent.change(screen.getByLabelText('最大输出 token'), { target: { value: '64' } });
    fireEvent.change(screen.getByLabelText('温度', { selector: 'input.ant-input-number-input' }), { target: { value: '1.2' } });

    await ask('你好');
    await waitFor(() => expect(chatCalls(api.fetchMock)).toHaveLength(1));
    const first = streams[0];
    first?.delta('你好呀');
    first?.finish();
    first?.usage({ prompt_tokens: 20, completion_tokens: 3, total_tokens: 23, cost_fen: 0, free_tokens: 23 });
    first?.done();
    expect(await screen.findByText('免费额度抵扣 23 token')).toBeTruthy();
    expect(screen.getByText('费用 ¥0.00')).toBeTruthy();
    expect(bodyOf(chatCalls(api.fetchMock)[0])).toMatchObject({
      messages: [
        { role: 'system', content: '你是简洁的助手' },
        { role: 'user', content: '你好' },
      ],
      max_tokens: 64,
      temperature: 1.2,
    });

    // Enter sends too; the second call carries the first question and answer.
    const input = screen.getByLabelText('输入消息');
    fireEvent.change(input, { target: { value: '再说一遍' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(chatCalls(api.fetchMock)).toHaveLength(2));
    expect(bodyOf(chatCalls(api.fetchMock)[1]).messages).toEqual([
      { role: 'system', content: '你是简洁的助手' },
      { role: 'user', content: '你好' },
      { role: 'assistant', content: '你好呀' },
      { role: 'user', content: '再说一遍' },
    ]);
    streams[1]?.done();

    // 清空对话 starts over.
    await waitFor(() => expect(buttonsByText('停止')).toHaveLength(0));
    fireEvent.click(buttonByText('清空对话'));
    expect(await screen.findByText('选择模型，输入问题开始对话')).toBeTruthy();
    expect(answers()).toEqual([]);
  });

  it('停止 aborts the request and keeps the partial answer, which the next question carries', async () => {
    const streams = [sseBody(), sseBody()];
    let call = 0;
    const api = chatApi((_url, init) => (streams[call++] ?? sseBody()).response(init?.signal));
    renderPage(<ModelChatPage />, `${CHAT}?model=qwen2.5-7b-instruct`);
    await ask('写一首长诗');
    await waitFor(() => expect(chatCalls(api.fetchMock)).toHaveLength(1));
    streams[0]?.delta('床前明月光');
    await waitFor(() => expect(answers()).toEqual(['床前明月光']));

    fireEvent.click(buttonByText('停止'));
    const signal = chatCalls(api.fetchMock)[0]?.[1]?.signal;
    expect(signal?.aborted).toBe(true);
    expect(await screen.findByText('已停止')).toBeTruthy();
    expect(answers()).toEqual(['床前明月光']);
    expect(buttonByText('发送')).toBeTruthy();
    expect(toastOpen).not.toHaveBeenCalled();
    expect(document.querySelector('.slg-chat-error')).toBeNull();

    await ask('继续');
    await waitFor(() => expect(chatCalls(api.fetchMock)).toHaveLength(2));
    expect(bodyOf(chatCalls(api.fetchMock)[1]).messages).toEqual([
      { role: 'user', content: '写一首长诗' },
      { role: 'assistant', content: '床前明月光' },
      { role: 'user', content: '继续' },
    ]);
    streams[1]?.done();
  });

  it('shows an error in OpenAI’s shape once, in the conversation, with 去充值 for 余额不足', async () => {
    const api = chatApi(() => openAiError(402, '余额不足：本次调用至少需要 ¥0.01，请充值后再试', 'insufficient_quota', 'insufficient_quota'));
    renderPage(<ModelChatPage />, `${CHAT}?model=qwen2.5-7b-instruct`);
    await ask('你好');
    expect(await screen.findByText('余额不足：本次调用至少需要 ¥0.01，请充值后再试')).toBeTruthy();
    expect(screen.getAllByText(/余额不足/)).toHaveLength(1);
    expect(linksByText('去充值')[0]?.getAttribute('href')).toBe('/ctrl-cost-center/cost-center/recharge');
    expect(chatCalls(api.fetchMock)).toHaveLength(1);
    // Shown in place only: no toast besides.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(toastOpen).not.toHaveBeenCalled();
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('shows an error sent inside the stream once, after the part of the answer that arrived', async () => {
    const stream = sseBody();
    chatApi((_url, init) => stream.response(init?.signal));
    renderPage(<ModelChatPage />, `${CHAT}?model=slg-tiny-test`);
    await ask('你好');
    stream.delta('半句');
    await waitFor(() => expect(answers()).toEqual(['半句']));
    stream.data({ error: { message: '模型推理失败，请稍后重试', type: 'server_error', param: null, code: null } });
    stream.done();
    expect(await screen.findByText('模型推理失败，请稍后重试')).toBeTruthy();
    expect(screen.getAllByText('模型推理失败，请稍后重试')).toHaveLength(1);
    expect(answers()).toEqual(['半句']);
    expect(toastOpen).not.toHaveBeenCalled();
    expect(buttonByText('发送')).toBeTruthy();
  });

  it('refreshes the session once on a 401 and asks again with the new token; a second 401 signs out', async () => {
    const stream = sseBody();
    let calls = 0;
    const api = chatApi((_url, init) => {
      calls += 1;
      if (calls === 1) return openAiError(401, 'API 令牌无效、已停用或已过期', 'invalid_api_key');
      if (calls === 2) return stream.response(init?.signal);
      return openAiError(401, 'API 令牌无效、已停用或已过期', 'invalid_api_key');
    });
    const refresh = vi.fn(() => ok({ jwtToken: 'jwt-2', refreshToken: 'refresh-2' }));
    const onUnauthorized = vi.fn();
    const routes: Record<string, Handler> = { 'POST /auth/refresh-token': refresh };
    const fallback = api.fetchMock.getMockImplementation();
    api.fetchMock.mockImplementation(async (input, init) => {
      const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api\/v1/, '');
      const handler = routes[`${init?.method ?? 'GET'} ${path}`];
      return handler ? handler(new URL(String(input), 'http://localhost'), init) : (fallback as typeof fetch)(input, init);
    });
    configureApiClient({
      onUnauthorized,
      session: {
        getToken: () => useUserStore.getState().token,
        getRefreshToken: () => useUserStore.getState().refreshToken,
        setTokens: (pair) => useUserStore.getState().setTokens(pair),
      },
    });
    renderPage(<ModelChatPage />, `${CHAT}?model=qwen2.5-7b-instruct`);
    await ask('你好');
    await waitFor(() => expect(chatCalls(api.fetchMock)).toHaveLength(2));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(new Headers(chatCalls(api.fetchMock)[0]?.[1]?.headers).get('Authorization')).toBe('Bearer jwt');
    expect(new Headers(chatCalls(api.fetchMock)[1]?.[1]?.headers).get('Authorization')).toBe('Bearer jwt-2');
    stream.delta('好');
    stream.done();
    await waitFor(() => expect(answers()).toEqual(['好']));
    expect(onUnauthorized).not.toHaveBeenCalled();

    // The refreshed session is refused too (refresh fails now): the client's 401 policy, said once by its toast.
    refresh.mockImplementation(() => new Response('{}', { status: 401 }));
    await ask('还在吗');
    await waitFor(() => expect(onUnauthorized).toHaveBeenCalledTimes(1));
    expect(chatCalls(api.fetchMock)).toHaveLength(3);
    expect(api.notify).toHaveBeenCalledTimes(1);
    expect(document.querySelector('.slg-chat-error')).toBeNull();
  });

  it('warns about a model that is not in the catalogue and defaults to the first one without ?model=', async () => {
    chatApi(() => sseBody().response());
    renderPage(<ModelChatPage />, `${CHAT}?model=gone`);
    expect(await screen.findByText('模型「gone」不存在或已下线，请重新选择')).toBeTruthy();
    expect(buttonByText('代码示例').disabled).toBe(true);
    cleanup();

    chatApi(() => sseBody().response());
    renderPage(<ModelChatPage />, CHAT);
    expect(await screen.findByText(/这是平台生成的测试模型/)).toBeTruthy();
  });

  it('代码示例 shows the same call with curl and Python at this site’s /v1, with a link to create an API token', async () => {
    chatApi(() => sseBody().response());
    renderPage(<ModelChatPage />, `${CHAT}?model=qwen2.5-7b-instruct`);
    await screen.findByLabelText('输入消息');
    await waitFor(() => expect(buttonByText('代码示例').disabled).toBe(false));
    fireEvent.click(buttonByText('代码示例'));
    const drawer = await findDialog();
    const origin = window.location.origin;
    expect(within(drawer).getByText(`${origin}/v1`)).toBeTruthy();
    const curl = within(drawer).getByLabelText('curl 示例').textContent ?? '';
    expect(curl).toContain(`curl ${origin}/v1/chat/completions`);
    expect(curl).toContain('-H "Authorization: Bearer slg_…"');
    expect(curl).toContain('"model":"qwen2.5-7b-instruct"');
    expect(curl).toContain('"stream_options":{"include_usage":true}');
    expect(linksByText('个人中心 › API令牌', drawer)[0]?.getAttribute('href')).toBe('/ctrl-personal-center/personal-center/setting');

    fireEvent.click(within(drawer).getByText('Python'));
    const python = (await within(drawer).findByLabelText('Python 示例')).textContent ?? '';
    expect(python).toContain(`client = OpenAI(base_url="${origin}/v1", api_key="slg_…")`);
    expect(python).toContain('model="qwen2.5-7b-instruct",');
    expect(python).toContain('max_tokens=512,');
    expect(python).toContain('temperature=0.7,');
    // Copy buttons.
    expect(drawer.querySelectorAll('.ant-typography-copy').length).toBeGreaterThanOrEqual(2);
  });
});
