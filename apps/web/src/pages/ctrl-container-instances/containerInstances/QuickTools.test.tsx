/** 快捷工具 in 实例列表: Jupyter, TensorBoard and 终端 on real machines, a disabled button saying why on simulated ones. */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, ok, page, renderPage } from '../../ctrl-cost-center/testing';
import ContainerInstancesPage from './index';
import { RUNNING_INSTANCE } from '../testing';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('快捷工具', () => {
  it('opens 终端 in a tab of its own, and Jupyter and TensorBoard once the gateway let this browser in', async () => {
    const api = mockApi({
      'GET /rental': () => page([RUNNING_INSTANCE]),
      'GET /rental/terminal/available': () => ok({ available: true, reason: null }),
      'POST /rental/tools/session': () => ok({ jupyterUrl: `/tools/${RUNNING_INSTANCE.instanceId}/jupyter/`, tensorboardUrl: `/tools/${RUNNING_INSTANCE.instanceId}/tensorboard/` }),
    });
    const tab = { location: { href: 'about:blank' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    renderPage(<ContainerInstancesPage />, '/x');
    fireEvent.click((await screen.findAllByRole('button', { name: /快捷工具/ }))[0] as HTMLElement);
    fireEvent.click(await screen.findByText('终端'));
    expect(open).toHaveBeenCalledWith(`/ctrl-container-instances/terminal?instanceId=${RUNNING_INSTANCE.instanceId}`, '_blank', 'noopener');

    fireEvent.click((await screen.findAllByRole('button', { name: /快捷工具/ }))[0] as HTMLElement);
    fireEvent.click(await screen.findByText('Jupyter'));
    await waitFor(() => expect(tab.location.href).toBe(`/tools/${RUNNING_INSTANCE.instanceId}/jupyter/`));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/tools/session')[0]?.[1]?.body))).toEqual({ instanceId: RUNNING_INSTANCE.instanceId });

    const second = { location: { href: 'about:blank' }, close: vi.fn() };
    open.mockReturnValue(second as unknown as Window);
    fireEvent.click((await screen.findAllByRole('button', { name: /快捷工具/ }))[0] as HTMLElement);
    fireEvent.click(await screen.findByText('TensorBoard'));
    await waitFor(() => expect(second.location.href).toBe(`/tools/${RUNNING_INSTANCE.instanceId}/tensorboard/`));
  });

  it('says simulated machines have no shell', async () => {
    const reason = '模拟的实例没有终端：终端、Jupyter 与 TensorBoard 只在真实机器（Docker 驱动）上可用';
    mockApi({ 'GET /rental': () => page([RUNNING_INSTANCE]), 'GET /rental/terminal/available': () => ok({ available: false, reason }) });
    renderPage(<ContainerInstancesPage />, '/x');
    fireEvent.click((await screen.findAllByRole('button', { name: /快捷工具/ }))[0] as HTMLElement);
    expect(await screen.findByText(reason)).toBeTruthy();
    for (const name of ['Jupyter', 'TensorBoard', '终端']) expect(screen.getByRole('menuitem', { name }).getAttribute('aria-disabled')).toBe('true');
  });
});
