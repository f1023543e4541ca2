/**
 * 我的订单 and 订单详情 of pay-as-you-go orders (issue 17): no price up front, so instead of 原价 and 实付
 * ¥0.00 they say 按量 and what the use has been charged so far (the server's meteredAmount).
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import OrderDetailPage from '../order-detail/index';
import { mockApi, ok, page, renderPage } from '../testing';
import OrdersPage from './index';

afterEach(() => cleanup());

const USAGE_ORDER = {
  orderNo: '20250101120000123456',
  type: 'NEW_PURCHASE',
  status: 'PLACED',
  billingType: 'USAGE',
  title: '新购实例 RTX 4090-北京A区（按量计费）',
  originalAmount: 0,
  discount: 0,
  paidAmount: 0,
  refundedAmount: 0,
  meteredAmount: 1234,
  createdAt: '2025-01-01T04:00:00Z',
  paidAt: null,
};
const PACKAGE_ORDER = {
  ...USAGE_ORDER,
  orderNo: '20250101120000654321',
  status: 'PAID',
  billingType: 'BUYOUT',
  title: '新购实例 RTX 4090-北京A区（包日 1天）',
  originalAmount: 4356,
  paidAmount: 4356,
  meteredAmount: 0,
  paidAt: '2025-01-01T04:00:00Z',
};

function rowOf(orderNo: string): HTMLElement {
  return screen.getByText(orderNo).closest('tr') as HTMLElement;
}

describe('pay-as-you-go orders', () => {
  it('are listed as 按量 with what they have been charged so far, beside a prepaid order’s prices', async () => {
    mockApi({ 'GET /order': () => page([USAGE_ORDER, PACKAGE_ORDER]) });
    renderPage(<OrdersPage />, '/x');
    expect(await screen.findByText(USAGE_ORDER.orderNo)).toBeTruthy();
    const usage = rowOf(USAGE_ORDER.orderNo);
    expect(within(usage).getByText('按量')).toBeTruthy();
    expect(within(usage).getByText('¥12.34')).toBeTruthy();
    expect(within(usage).getByText('按量累计已扣')).toBeTruthy();
    expect(within(usage).queryByText('¥0.00')).toBeNull();
    const prepaid = rowOf(PACKAGE_ORDER.orderNo);
    expect(within(prepaid).getAllByText('¥43.56')).toHaveLength(2);
    expect(within(prepaid).queryByText('按量累计已扣')).toBeNull();
  });

  it('show the hourly price and the amount charged so far in their detail, not 原价 and 实付 of ¥0.00', async () => {
    mockApi({
      'GET /order/20250101120000123456': () =>
        ok({
          ...USAGE_ORDER,
          items: [{ name: 'RTX 4090 × 1', spec: '16 核 · 90GB', quantity: 1, unit: '时', unitPrice: 198, amount: 0 }],
          voucher: null,
          transactions: [{ id: 1, type: 'CONSUME', channel: 'BALANCE', amount: -1234, description: '按量计费：RTX 4090-北京A区', createdAt: '2025-01-01T05:00:00Z' }],
          canceledAt: null,
        }),
    });
    renderPage(<OrderDetailPage />, `/x?orderNo=${USAGE_ORDER.orderNo}`);
    const breakdown = (await screen.findByText('按量已计费')).closest('dl') as HTMLElement;
    expect(within(breakdown).getByText('¥12.34')).toBeTruthy();
    expect(breakdown.textContent).toContain('按量单价¥1.98/时');
    expect(within(breakdown).queryByText('原价')).toBeNull();
    expect(within(breakdown).queryByText('实付')).toBeNull();
    expect(screen.getByText(/运行期间每分钟从余额结算一次/)).toBeTruthy();
  });
});
