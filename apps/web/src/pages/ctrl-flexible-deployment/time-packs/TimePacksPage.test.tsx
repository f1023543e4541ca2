/** 时长包: what is left of each pack, how packs are drawn down, 购买 with the quote and discount first, 退款 with the exact preview. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buttonByText, callsTo, findDialog, mockApi, ok, page, renderPage } from '../../ctrl-cost-center/testing';
import { GPUS, PACK } from '../testing';
import TimePacksPage from './index';

afterEach(() => cleanup());

const EXPIRED = { ...PACK, id: 12, gpuModelId: 'a100', gpuModelName: 'A100', status: 'EXPIRED' as const, balanceSeconds: 0, paidFen: 5700 };

function rowOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'td span' }).closest('tr') as HTMLElement;
}

describe('时长包', () => {
  it('lists packs with what is left, status, expiry and money, and explains how running containers draw them down', async () => {
    mockApi({ 'GET /elastic/time-bundle': () => page([PACK, EXPIRED]) });
    renderPage(<TimePacksPage />, '/x');
    expect(await screen.findByText('25 / 100 卡时')).toBeTruthy();
    const pack = rowOf('RTX 4090');
    expect(within(pack).getByText('使用中')).toBeTruthy();
    expect(within(pack).getByText('¥162.00')).toBeTruthy();
    expect(within(pack).getByText('退款')).toBeTruthy();
    const expired = rowOf('A100');
    expect(within(expired).getByText('已过期')).toBeTruthy();
    expect(within(expired).queryByText('退款')).toBeNull();
    expect(document.body.textContent).toContain('运行中的弹性部署容器按秒从同一 GPU 型号的时长包中抵扣');
    expect(document.body.textContent).toContain('时长包用完或过期后才从余额扣费');
  });

  it('buys: the quote with its discount before paying, then the order', async () => {
    const api = mockApi({
      'GET /elastic/time-bundle': () => page([]),
      'GET /meta/gpu': () => ok(GPUS),
      'GET /account/': () => ok({ totalBalance: 50_000, balance: 50_000, voucherBalance: 0 }),
      'GET /elastic/time-bundle/quote': (url) => ok({ priceFen: Math.round(180 * Number(url.searchParams.get('hours')) * 0.9), pricePerGpuHourFen: 180 }),
      'POST /elastic/time-bundle': () => ok({ id: 13, orderId: 'T2026' }),
    });
    renderPage(<TimePacksPage />, '/x');
    expect(await screen.findByText('还没有时长包')).toBeTruthy();
    fireEvent.click(buttonByText('购买时长包', document.querySelector('.slg-page-header') as HTMLElement));
    const dialog = await findDialog();
    expect((buttonByText('支付', dialog) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.mouseDown(within(dialog).getByLabelText('GPU 型号').closest('.ant-select') as HTMLElement);
    fireEvent.click(await screen.findByText('RTX 4090 · 按量 ¥1.80/卡时', { selector: '.ant-select-item-option-content' }));
    const quote = await within(dialog).findByLabelText('费用');
    await waitFor(() => expect(quote.textContent).toContain('¥162.00'));
    expect(quote.textContent).toContain('¥1.80/卡时');
    expect(quote.textContent).toContain('¥180.00');
    expect(quote.textContent).toContain('9折');
    fireEvent.click(within(dialog).getByText('180 天'));
    fireEvent.click(buttonByText('支付 ¥162.00', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/elastic/time-bundle')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/elastic/time-bundle')[0]?.[1]?.body))).toEqual({ gpuModelId: 'rtx4090', hours: 100, validDays: 180 });
  });

  it('refunds: 实付, 已用 and 退回 exactly as the preview says, applied on confirm', async () => {
    const api = mockApi({
      'GET /elastic/time-bundle': () => page([PACK]),
      'GET /elastic/time-bundle/refund': () => ok({ paid: 16_200, used: 12_150, refund: 4_050 }),
      'POST /elastic/time-bundle/refund': () => ok({ paid: 16_200, used: 12_151, refund: 4_049 }),
    });
    renderPage(<TimePacksPage />, '/x');
    await screen.findByText('25 / 100 卡时');
    fireEvent.click(buttonByText('退款', rowOf('RTX 4090')));
    const dialog = await findDialog();
    await within(dialog).findByText('¥40.50');
    expect(dialog.textContent).toContain('RTX 4090 时长包剩余 25 卡时');
    expect(within(dialog).getByText('¥162.00')).toBeTruthy();
    expect(within(dialog).getByText('¥121.50')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/elastic/time-bundle/refund')).toHaveLength(0);
    fireEvent.click(buttonByText('确认退款', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/elastic/time-bundle/refund')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/elastic/time-bundle/refund')[0]?.[1]?.body))).toEqual({ id: PACK.id });
    await waitFor(() => expect(api.notify).toHaveBeenCalled());
  });
});
