import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../api/queryKeys';
import { billingKeys } from '../../../api/billing';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, pending, renderPage } from '../testing';
import RechargePage from './index';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const created = (amount: number, channel = 'WXPAY') => ({
  rechargeId: 'RC100',
  amount,
  channel,
  status: 'CREATED',
  payUrl: channel === 'BANK' ? null : 'http://localhost/sandbox-pay/RC100',
  qrCode: channel === 'BANK' ? null : 'http://localhost/sandbox-pay/RC100',
  bankReference: null,
  failureReason: null,
  createdAt: '2025-01-01T00:00:00Z',
  paidAt: null,
});

const channels = (list: string[], bankAccount: unknown = null) => ok({ channels: list, bankAccount });

afterEach(() => cleanup());

// Rendering the whole page is slow on a busy machine: a generous limit per test, never fixed waits.
describe('recharge page', () => {
  it('shows a skeleton while the channels load', () => {
    mockApi({ 'GET /payment/channels': pending, 'GET /account/': pending });
    const { container } = renderPage(<RechargePage />);
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    expect(screen.queryByLabelText('微信支付')).toBeNull();
  });

  it('says so when no channel is offered, and when the channels fail to load (重试)', async () => {
    mockApi({ 'GET /payment/channels': () => channels([]), 'GET /account/': () => ok({ totalBalance: 0 }) });
    renderPage(<RechargePage />);
    expect(await screen.findByText('暂无可用的支付方式，请稍后再试或联系客服')).toBeTruthy();
    expect(buttonByText('立即充值').disabled).toBe(true);
    cleanup();

    const api = mockApi({ 'GET /payment/channels': () => failure(500, 50000, '服务器内部错误'), 'GET /account/': () => ok({ totalBalance: 0 }) });
    renderPage(<RechargePage />);
    expect(await screen.findByText('支付方式加载失败')).toBeTruthy();
    api.fetchMock.mockImplementation(async () => channels(['WXPAY']));
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByLabelText('微信支付')).toBeTruthy();
  });

  it('offers only the channels the server offers, and validates the amount before submitting', async () => {
    const api = mockApi({ 'GET /payment/channels': () => channels(['ALIPAY', 'BANK'], { bankName: '招商银行', accountName: '算力港科技', accountNo: '6225 0000' }), 'GET /account/': () => ok({ totalBalance: 0 }) });
    renderPage(<RechargePage />);
    expect(await screen.findByLabelText('支付宝')).toBeTruthy();
    expect(screen.getByLabelText('对公转账')).toBeTruthy();
    expect(screen.queryByLabelText('微信支付')).toBeNull();

    fireEvent.change(screen.getByLabelText('充值金额'), { target: { value: '1.005' } });
    fireEvent.click(buttonByText('立即充值'));
    expect(await screen.findByText('请输入正确的金额，最多两位小数')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('充值金额'), { target: { value: '100000.01' } });
    expect(await screen.findByText('单笔充值金额不能超过 ¥100,000.00')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/payment/recharge')).toHaveLength(0);

    fireEvent.click(screen.getByLabelText('对公转账'));
    expect(await screen.findByText('对公转账收款账户')).toBeTruthy();
    expect(screen.getByText('招商银行')).toBeTruthy();
  });

  it('names only the channels on offer in its texts', async () => {
    mockApi({ 'GET /payment/channels': () => channels(['ALIPAY']), 'GET /account/': () => ok({ totalBalance: 0 }) });
    renderPage(<RechargePage />);
    expect(await screen.findByText('支付宝支付成功后余额实时到账。', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('充值金额实时到账，可用于实例、存储等所有按量与包年包月消费。')).toBeTruthy();
    expect(screen.queryByText(/对公转账|微信/)).toBeNull();
    cleanup();

    mockApi({ 'GET /payment/channels': () => channels(['BANK'], { bankName: '招商银行', accountName: '算力港科技', accountNo: '6225 0000' }), 'GET /account/': () => ok({ totalBalance: 0 }) });
    renderPage(<RechargePage />);
    expect(await screen.findByText('对公转账请在转账备注中填写充值单号，财务确认后到账。', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('对公转账在财务确认后到账，可用于实例、存储等所有按量与包年包月消费。')).toBeTruthy();
    expect(screen.queryByText(/微信|支付宝|实时到账/)).toBeNull();
  });

  it('creates the recharge with an Idempotency-Key, polls it and on SUCCESS shows 充值成功 and refreshes the balance', async () => {
    let polls = 0;
    const api = mockApi({
      'GET /payment/channels': () => channels(['WXPAY', 'ALIPAY']),
      'GET /account/': () => ok({ totalBalance: 0 }),
      'POST /payment/recharge': (_url, init) => ok(created(JSON.parse(String(init?.body)).amount as number)),
      'GET /payment/recharge/RC100': () => {
        polls += 1;
        return ok(polls < 2 ? created(1234) : { ...created(1234), status: 'SUCCESS', paidAt: '2025-01-01T00:01:00Z' });
      },
    });
    const { queryClient } = renderPage(<RechargePage />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');

    fireEvent.click(await screen.findByLabelText('微信支付'));
    fireEvent.change(screen.getByLabelText('充值金额'), { target: { value: '12.34' } });
    await act(async () => {
      fireEvent.click(buttonByText('立即充值'));
    });

    const dialog = await findDialog();
    const link = (await within(dialog).findByText('在新窗口打开支付页', { selector: 'a[href], a[href] *' })).closest('a') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('http://localhost/sandbox-pay/RC100');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(within(dialog).getByText('¥12.34')).toBeTruthy();

    const [, init] = callsTo(api.fetchMock, 'POST', '/payment/recharge')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ amount: 1234, channel: 'WXPAY' });
    expect(new Headers(init?.headers).get('Idempotency-Key')).toMatch(UUID);

    expect(await within(dialog).findByText('充值成功', undefined, { timeout: 6000 })).toBeTruthy();
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.balance });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: billingKeys.all });
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/account/').length).toBeGreaterThanOrEqual(2));

    // A new submit is a new payment: a new Idempotency-Key.
    fireEvent.click(buttonByText('完成', dialog));
    await act(async () => {
      fireEvent.click(buttonByText('立即充值'));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/payment/recharge')).toHaveLength(2));
    const keys = callsTo(api.fetchMock, 'POST', '/payment/recharge').map(([, options]) => new Headers(options?.headers).get('Idempotency-Key'));
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('shows 支付失败 when the payment fails', async () => {
    mockApi({
      'GET /payment/channels': () => channels(['ALIPAY']),
      'GET /account/': () => ok({ totalBalance: 0 }),
      'POST /payment/recharge': () => ok(created(10000, 'ALIPAY')),
      'GET /payment/recharge/RC100': () => ok({ ...created(10000, 'ALIPAY'), status: 'FAILED', failureReason: '支付超时' }),
    });
    renderPage(<RechargePage />);
    await screen.findByLabelText('支付宝');
    await act(async () => {
      fireEvent.click(buttonByText('立即充值'));
    });
    expect(await screen.findByText('支付失败', undefined, { timeout: 6000 })).toBeTruthy();
    expect(screen.getByText('支付超时')).toBeTruthy();
  });

  it('a bank transfer shows the account and takes the transfer reference', async () => {
    const api = mockApi({
      'GET /payment/channels': () => channels(['BANK'], { bankName: '招商银行', accountName: '算力港科技', accountNo: '6225 0000' }),
      'GET /account/': () => ok({ totalBalance: 0 }),
      'POST /payment/recharge': () => ok(created(500000, 'BANK')),
      'POST /payment/recharge/RC100/bank-reference': (_url, init) =>
        ok({ ...created(500000, 'BANK'), bankReference: (JSON.parse(String(init?.body)) as { reference: string }).reference }),
    });
    renderPage(<RechargePage />);
    await screen.findByLabelText('对公转账');
    fireEvent.change(screen.getByLabelText('充值金额'), { target: { value: '5000' } });
    await act(async () => {
      fireEvent.click(buttonByText('立即充值'));
    });
    const dialog = await findDialog();
    expect(within(dialog).getByText('RC100')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('银行流水号'), { target: { value: 'HX2025010100001' } });
    await act(async () => {
      fireEvent.click(buttonByText('提交转账信息', dialog));
    });
    expect(await within(dialog).findByText('转账信息已提交')).toBeTruthy();
    const [, init] = callsTo(api.fetchMock, 'POST', '/payment/recharge/RC100/bank-reference')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ reference: 'HX2025010100001' });
    expect(callsTo(api.fetchMock, 'GET', '/payment/recharge/RC100')).toHaveLength(0);
  });
});
