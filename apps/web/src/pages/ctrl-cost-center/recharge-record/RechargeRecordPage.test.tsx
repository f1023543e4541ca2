import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RechargeDto } from '../../../api/billing';
import { queryKeys } from '../../../api/queryKeys';
import { buttonByText, buttonsByText, callsTo, failure, type Handler, mockApi, ok, page, renderPage } from '../testing';
import { QR_PENDING_POLL_MS } from './live';
import RechargeRecordPage from './index';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const recharge = (overrides: Partial<RechargeDto> = {}): RechargeDto => ({
  rechargeId: 'RC1',
  amount: 10_000,
  channel: 'WXPAY',
  status: 'CREATED',
  payUrl: null,
  qrCode: 'weixin://wxpay/bizpayurl?pr=RC1',
  bankReference: null,
  failureReason: null,
  createdAt: '2025-01-01T00:00:00Z',
  paidAt: null,
  ...overrides,
});

const BANK_ACCOUNT = { bankName: '招商银行', accountName: '算力港科技', accountNo: '6225 0000' };
const channels = (list: string[]) => () => ok({ channels: list, bankAccount: list.includes('BANK') ? BANK_ACCOUNT : null });

function api(routes: Record<string, Handler>) {
  return mockApi({ 'GET /payment/channels': channels(['WXPAY', 'ALIPAY', 'BANK']), 'GET /account/': () => ok({ totalBalance: 0 }), ...routes });
}

const rowOf = async (text: string) => (await screen.findByText(text, undefined, { timeout: 5000 })).closest('tr') as HTMLElement;

/** Opens a filter's dropdown (antd appends it to the body when first opened) and returns its options' texts. */
async function optionsOf(label: string): Promise<string[]> {
  const before = document.querySelectorAll('.ant-select-dropdown').length;
  fireEvent.mouseDown(within(document.querySelector('[role="search"]') as HTMLElement).getByLabelText(label));
  const dropdown = await waitFor(() => {
    const all = document.querySelectorAll('.ant-select-dropdown');
    if (all.length === before) throw new Error(`no dropdown for ${label}`);
    return all[all.length - 1] as HTMLElement;
  });
  return [...dropdown.querySelectorAll('.ant-select-item-option')].map((option) => option.textContent ?? '');
}

/** The open dialog whose title is `title` (ids are fixed in tests, so dialogs are found by their text). */
async function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(
    () => {
      const dialog = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((element) => element.querySelector('.ant-modal-title')?.textContent === title);
      if (!dialog) throw new Error(`no dialog ${title}`);
      return dialog;
    },
    { timeout: 5000 },
  );
}

// The machine running the suite may be busy: generous limits, never fixed waits.
describe('充值记录 actions', () => {
  it.each([
    ['WeChat Pay (code_url, no page)', recharge({ rechargeId: 'RCW', channel: 'WXPAY', qrCode: 'weixin://wxpay/bizpayurl?pr=RCW' }), '微信支付扫码支付', '请使用微信扫描二维码完成支付'],
    ['Alipay (qr_code, no page)', recharge({ rechargeId: 'RCA', channel: 'ALIPAY', qrCode: 'https://qr.alipay.com/bax0' }), '支付宝扫码支付', '请使用支付宝扫描二维码完成支付'],
    [
      'the sandbox (a page)',
      recharge({ rechargeId: 'RCS', channel: 'ALIPAY', qrCode: 'http://localhost/sandbox-pay/RCS', payUrl: 'http://localhost/sandbox-pay/RCS' }),
      '支付宝扫码支付',
      '请使用支付宝扫描二维码完成支付',
    ],
  ] as const)('去支付 on %s shows the QR code again, polls it and shows 充值成功', async (_gateway, row, title, scan) => {
    let polls = 0;
    const paid = { ...row, status: 'SUCCESS' as const, paidAt: '2025-01-01T00:05:00Z' };
    const mock = api({
      'GET /payment/recharge': () => page([row]),
      [`GET /payment/recharge/${row.rechargeId}`]: () => {
        polls += 1;
        return ok(polls < 2 ? row : paid);
      },
    });
    const { queryClient } = renderPage(<RechargeRecordPage />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const tableRow = await rowOf(row.rechargeId);
    expect(within(tableRow).getByText('待支付')).toBeTruthy();
    fireEvent.click(buttonByText('去支付', tableRow));

    const dialog = await dialogTitled(title);
    expect(within(dialog).getByRole('img', { name: scan })).toBeTruthy();
    expect(within(dialog).getByText('¥100.00')).toBeTruthy();
    const openPage = within(dialog).queryByText('在新窗口打开支付页', { selector: 'a[href], a[href] *' })?.closest('a') ?? null;
    expect(openPage?.getAttribute('href') ?? null).toBe(row.payUrl);

    expect(await within(dialog).findByText('充值成功', undefined, { timeout: 6000 })).toBeTruthy();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.balance });
    expect(callsTo(mock.fetchMock, 'GET', `/payment/recharge/${row.rechargeId}`).length).toBeGreaterThanOrEqual(2);
    // Opened over 充值记录 itself: no link back to it.
    expect(within(dialog).queryByText('查看充值记录', { selector: 'a[href], a[href] *' })).toBeNull();
  });

  it('取消 asks first, naming the effect; 再想想 changes nothing, 取消充值 cancels and reloads the list', async () => {
    let cancelled = false;
    const mock = api({
      'GET /payment/recharge': () => page([cancelled ? recharge({ status: 'FAILED', failureReason: '已取消' }) : recharge()]),
      'POST /payment/recharge/RC1/cancel': () => {
        cancelled = true;
        return ok(recharge({ status: 'FAILED', failureReason: '已取消' }));
      },
    });
    renderPage(<RechargeRecordPage />);
    const row = await rowOf('RC1');
    fireEvent.click(buttonByText('取消', row));
    const dialog = await dialogTitled('取消这笔充值？');
    expect(within(dialog).getByText('取消后该笔充值将关闭，若已扫码付款请勿取消。')).toBeTruthy();
    expect(within(dialog).getByText('充值单号 RC1，金额 ¥100.00。')).toBeTruthy();
    fireEvent.click(buttonByText('再想想', dialog));
    expect(callsTo(mock.fetchMock, 'POST', '/payment/recharge/RC1/cancel')).toHaveLength(0);

    fireEvent.click(buttonByText('取消', await rowOf('RC1')));
    await act(async () => {
      fireEvent.click(buttonByText('取消充值', await dialogTitled('取消这笔充值？')));
    });
    await waitFor(() => expect(callsTo(mock.fetchMock, 'POST', '/payment/recharge/RC1/cancel')).toHaveLength(1));
    const updated = await waitFor(async () => {
      const tableRow = await rowOf('RC1');
      expect(within(tableRow).getByText('已取消')).toBeTruthy();
      return tableRow;
    });
    expect((buttonsByText('去支付', updated)[0] ?? null)).toBeNull();
    expect((buttonsByText('取消', updated)[0] ?? null)).toBeNull();
    expect(await screen.findByText('充值已取消')).toBeTruthy();
  });

  it('a cancel that finds the recharge paid says so and refreshes the balance', async () => {
    api({
      'GET /payment/recharge': () => page([recharge()]),
      'POST /payment/recharge/RC1/cancel': () => failure(409, 40901, '该订单已支付，款项已计入账户余额'),
    });
    const { queryClient } = renderPage(<RechargeRecordPage />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    fireEvent.click(buttonByText('取消', await rowOf('RC1')));
    await act(async () => {
      fireEvent.click(buttonByText('取消充值', await dialogTitled('取消这笔充值？')));
    });
    expect(await screen.findByText('该订单已支付，款项已计入账户余额')).toBeTruthy();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.balance });
  });

  it('a pending bank transfer reads 待确认 with its 银行流水号, and offers neither 去支付 nor 取消', async () => {
    api({
      'GET /payment/recharge': () =>
        page([
          recharge({ rechargeId: 'RCB1', channel: 'BANK', qrCode: null, bankReference: 'CMB20250101001' }),
          recharge({ rechargeId: 'RCB2', channel: 'BANK', qrCode: null }),
        ]),
    });
    renderPage(<RechargeRecordPage />);
    const submitted = await rowOf('RCB1');
    expect(within(submitted).getByText('待确认')).toBeTruthy();
    expect(within(submitted).queryByText('待支付')).toBeNull();
    expect(within(submitted).getByText('银行流水号：CMB20250101001')).toBeTruthy();
    expect(submitted.querySelector('button')).toBeNull();
    const notYet = await rowOf('RCB2');
    expect(within(notYet).getByText('待确认')).toBeTruthy();
    expect(buttonByText('提交流水号', notYet)).toBeTruthy();
    expect((buttonsByText('去支付', notYet)[0] ?? null)).toBeNull();
  });
});

describe('充值记录 filters', () => {
  it('offer only the channels that are enabled, and name the pending status after them', async () => {
    api({ 'GET /payment/channels': channels(['WXPAY', 'BANK']), 'GET /payment/recharge': () => page([]) });
    renderPage(<RechargeRecordPage />);
    await screen.findByText('暂无充值记录');
    await waitFor(() => expect(within(document.querySelector('[role="search"]') as HTMLElement).getByLabelText('充值方式')).toBeTruthy());
    expect(await optionsOf('充值方式')).toEqual(['微信支付', '对公转账']);
    expect(await optionsOf('状态')).toEqual(['待支付/待确认', '支付成功', '支付失败']);
  });

  it('with only QR channels say 待支付, and ignore a disabled channel in the address', async () => {
    const mock = api({ 'GET /payment/channels': channels(['ALIPAY']), 'GET /payment/recharge': () => page([]) });
    renderPage(<RechargeRecordPage />, '/x?channel=BANK');
    await waitFor(() => expect(within(document.querySelector('[role="search"]') as HTMLElement).getByLabelText('充值方式')).toBeTruthy());
    expect(await optionsOf('状态')).toEqual(['待支付', '支付成功', '支付失败']);
    await waitFor(() => {
      const last = callsTo(mock.fetchMock, 'GET', '/payment/recharge').at(-1);
      expect(new URL(String(last?.[0]), 'http://localhost').searchParams.has('channel')).toBe(false);
    });
    expect(screen.queryByText('对公转账')).toBeNull();
  });
});

describe('充值记录 live updates', () => {
  it('polls while a recharge is pending, refreshes the balance when it settles, then stops polling', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let paid = false;
    const mock = api({ 'GET /payment/recharge': () => page([paid ? recharge({ status: 'SUCCESS', paidAt: '2025-01-01T00:01:00Z' }) : recharge()]) });
    const { queryClient } = renderPage(<RechargeRecordPage />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await rowOf('RC1');
    const listCalls = () => callsTo(mock.fetchMock, 'GET', '/payment/recharge').length;
    const before = listCalls();

    await act(() => vi.advanceTimersByTimeAsync(QR_PENDING_POLL_MS + 100));
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    expect(invalidate).not.toHaveBeenCalledWith({ queryKey: queryKeys.balance });

    // Paid in another tab: the next poll shows it, and the balance loads again.
    paid = true;
    await act(() => vi.advanceTimersByTimeAsync(QR_PENDING_POLL_MS + 100));
    await waitFor(() => expect(within(screen.getByText('RC1').closest('tr') as HTMLElement).getByText('支付成功')).toBeTruthy());
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.balance }));

    // Nothing pending any more: no more polls.
    await act(() => vi.advanceTimersByTimeAsync(100));
    const settled = listCalls();
    await act(() => vi.advanceTimersByTimeAsync(QR_PENDING_POLL_MS * 10));
    expect(listCalls()).toBe(settled);
  });

  it('does not poll a list without pending recharges', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const mock = api({ 'GET /payment/recharge': () => page([recharge({ status: 'SUCCESS' }), recharge({ rechargeId: 'RC2', status: 'FAILED', failureReason: '已取消' })]) });
    renderPage(<RechargeRecordPage />);
    expect(within(await rowOf('RC2')).getByText('已取消')).toBeTruthy();
    const calls = callsTo(mock.fetchMock, 'GET', '/payment/recharge').length;
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(callsTo(mock.fetchMock, 'GET', '/payment/recharge')).toHaveLength(calls);
  });
});
