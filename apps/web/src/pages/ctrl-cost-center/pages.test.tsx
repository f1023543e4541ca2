/** Loading, empty and error states of every cost-centre list page. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import CostCenterPage from './cost-center/index';
import BillsPage from './f-details/index';
import IncomeDetailsPage from './income-details/index';
import InvoicePage from './invoice/index';
import InvoiceInfoPage from './invoice-info/index';
import MakeBillInvoicePage from './make-bill-invoice/index';
import MakePriceInvoicePage from './make-price-invoice/index';
import OrdersPage from './order/index';
import OrderDetailPage from './order-detail/index';
import RechargeRecordPage from './recharge-record/index';
import { buttonsByText, callsTo, failure, linksByText, mockApi, ok, page, pending, renderPage, type Handler } from './testing';
import VoucherPage from './voucher/index';

afterEach(() => cleanup());

const EMPTY_INVOICEABLE = { recharges: [], months: [], cashTotal: 0, invoicedTotal: 0, available: 0 };
const PROFILE = { titleType: 'PERSONAL', title: '张三', taxNo: null, bankName: null, bankAccount: null, address: null, phone: null, email: 'a@b.cn' };

interface PageCase {
  name: string;
  Page: ComponentType;
  entry?: string;
  /** The call that carries the page's data. */
  main: string;
  /** Other calls, answered with data. */
  others?: Record<string, Handler>;
  emptyResult: unknown;
  emptyText: string;
  /** The call to action of the empty state. */
  emptyAction: { role: 'link' | 'button'; name: string } | null;
  errorText: string;
}

const CASES: PageCase[] = [
  {
    name: '充值记录',
    Page: RechargeRecordPage,
    main: 'GET /payment/recharge',
    emptyResult: { list: [], total: 0, page: 1, pageSize: 10 },
    emptyText: '暂无充值记录',
    emptyAction: { role: 'link', name: '去充值' },
    errorText: '充值记录加载失败',
  },
  {
    name: '收支明细',
    Page: IncomeDetailsPage,
    main: 'GET /ledger/entries',
    emptyResult: { list: [], total: 0, page: 1, pageSize: 10 },
    emptyText: '暂无收支记录',
    emptyAction: { role: 'link', name: '去充值' },
    errorText: '收支明细加载失败',
  },
  {
    name: '账单明细',
    Page: BillsPage,
    main: 'GET /bills',
    emptyResult: { list: [], total: 0, page: 1, pageSize: 10 },
    emptyText: '暂无账单',
    emptyAction: { role: 'link', name: '查看我的订单' },
    errorText: '账单明细加载失败',
  },
  {
    name: '我的订单',
    Page: OrdersPage,
    main: 'GET /order',
    emptyResult: { list: [], total: 0, page: 1, pageSize: 10 },
    emptyText: '暂无订单',
    emptyAction: { role: 'link', name: '去算力市场看看' },
    errorText: '订单加载失败',
  },
  {
    name: '代金券',
    Page: VoucherPage,
    main: 'GET /voucher',
    emptyResult: { list: [], total: 0, page: 1, pageSize: 10 },
    emptyText: '暂无可用代金券',
    emptyAction: { role: 'link', name: '用兑换码兑换' },
    errorText: '代金券加载失败',
  },
  {
    name: '发票管理',
    Page: InvoicePage,
    main: 'GET /invoice',
    others: { 'GET /invoice/invoiceable': () => ok(EMPTY_INVOICEABLE) },
    emptyResult: { list: [], total: 0, page: 1, pageSize: 10 },
    emptyText: '暂无发票申请',
    emptyAction: { role: 'link', name: '申请开票' },
    errorText: '发票加载失败',
  },
  {
    name: '发票信息',
    Page: InvoiceInfoPage,
    main: 'GET /invoice/info',
    emptyResult: null,
    emptyText: '尚未填写发票信息，保存后即可申请开票。',
    emptyAction: { role: 'button', name: '保存' },
    errorText: '发票信息加载失败',
  },
  {
    name: '按充值开票',
    Page: MakePriceInvoicePage,
    main: 'GET /invoice/invoiceable',
    others: { 'GET /invoice/info': () => ok(PROFILE) },
    emptyResult: EMPTY_INVOICEABLE,
    emptyText: '暂无可开票的充值记录',
    emptyAction: { role: 'link', name: '去充值' },
    errorText: '可开票数据加载失败',
  },
  {
    name: '按账单开票',
    Page: MakeBillInvoicePage,
    main: 'GET /invoice/invoiceable',
    others: { 'GET /invoice/info': () => ok(PROFILE) },
    emptyResult: EMPTY_INVOICEABLE,
    emptyText: '暂无可开票的月度账单',
    emptyAction: { role: 'link', name: '查看账单明细' },
    errorText: '可开票数据加载失败',
  },
  {
    name: '费用中心',
    Page: CostCenterPage,
    main: 'GET /ledger/entries',
    others: { 'GET /account/': () => ok({ totalBalance: 12345 }) },
    emptyResult: { list: [], total: 0, page: 1, pageSize: 5 },
    emptyText: '暂无收支记录',
    emptyAction: { role: 'link', name: '去充值' },
    errorText: '最近收支加载失败',
  },
];

describe.each(CASES)('$name', ({ Page, entry, main, others, emptyResult, emptyText, emptyAction, errorText }) => {
  it('shows a skeleton while loading', () => {
    mockApi({ ...others, [main]: pending });
    const { container } = renderPage(<Page />, entry);
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    expect(screen.queryByText(emptyText)).toBeNull();
    expect(screen.queryByText(errorText)).toBeNull();
  });

  it('shows the empty state with a call to action', async () => {
    mockApi({ ...others, [main]: () => ok(emptyResult) });
    renderPage(<Page />, entry);
    expect(await screen.findByText(emptyText)).toBeTruthy();
    // By text, not by role: role queries over a whole antd page took most of these tests' time.
    if (emptyAction) expect((emptyAction.role === 'link' ? linksByText : buttonsByText)(emptyAction.name).length).toBeGreaterThan(0);
  });

  it('shows the error with 重试, which loads again', async () => {
    const api = mockApi({ ...others, [main]: () => failure(500, 50000, '服务器内部错误') });
    renderPage(<Page />, entry);
    expect(await screen.findByText(errorText)).toBeTruthy();
    api.fetchMock.mockImplementation(async (input) => {
      const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api\/v1/, '');
      const handler = { ...others, [main]: () => ok(emptyResult) }[`GET ${path}`];
      return handler ? handler(new URL(String(input), 'http://localhost'), undefined) : failure(404, 40400, '服务器资源不存在');
    });
    fireEvent.click(buttonsByText('重试')[0] as HTMLElement);
    expect(await screen.findByText(emptyText)).toBeTruthy();
  });
});

describe('订单详情 states', () => {
  it('asks for an order number when there is none', async () => {
    mockApi({});
    renderPage(<OrderDetailPage />, '/ctrl-cost-center/cost-center/order-detail');
    expect(await screen.findByText('缺少订单号')).toBeTruthy();
    expect(linksByText('返回我的订单').length).toBeGreaterThan(0);
  });

  it('loads, then says the order does not exist on a 404, and offers 重试 on other errors', async () => {
    mockApi({ 'GET /order/O404': pending });
    const { container } = renderPage(<OrderDetailPage />, '/x?orderNo=O404');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /order/O404': () => failure(404, 40400, '订单不存在') });
    renderPage(<OrderDetailPage />, '/x?orderNo=O404');
    expect(await screen.findByText('订单不存在')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /order/O500': () => failure(500, 50000, '服务器内部错误') });
    renderPage(<OrderDetailPage />, '/x?orderNo=O500');
    expect(await screen.findByText('订单加载失败')).toBeTruthy();
    expect(buttonsByText('重试')).toHaveLength(1);
  });
});

function pressEnter(element: HTMLElement) {
  fireEvent.keyDown(element, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(element, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

describe('a failed refresh of a loaded list', () => {
  it('keeps the rows and says so above them, with the reason, and no toast besides', async () => {
    let calls = 0;
    const entry = { id: 1, type: 'RECHARGE', amount: 10000, balanceAfter: 10000, description: '微信支付充值', orderNo: null, rechargeId: 'RC1', createdAt: '2025-01-01T00:00:00Z' };
    const api = mockApi({
      'GET /ledger/entries': () => {
        calls += 1;
        return calls === 1 ? page([entry]) : failure(500, 50000, '数据库连接失败');
      },
    });
    const { queryClient } = renderPage(<IncomeDetailsPage />);
    expect(await screen.findByText('微信支付充值')).toBeTruthy();
    await act(async () => {
      await queryClient.invalidateQueries();
    });
    expect(await screen.findByText('刷新失败，显示的是上次加载的数据')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    expect(screen.getByText('微信支付充值')).toBeTruthy();
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    expect(api.notify).not.toHaveBeenCalled();
  });
});

describe('list filters', () => {
  it('账单明细 filters by the order types the platform places, none of a product not built yet', async () => {
    mockApi({ 'GET /bills': () => page([]) });
    renderPage(<BillsPage />, '/x');
    await screen.findByText('暂无账单');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '订单类型' }));
    const options = await waitFor(() => {
      const found = [...document.querySelectorAll('.ant-select-item-option')].map((option) => option.textContent ?? '');
      if (found.length === 0) throw new Error('the 订单类型 dropdown did not open');
      return found;
    });
    expect(options).toEqual(['新购实例', '克隆实例', '转按量计费', '转包年包月', '新购存储', '扩容数据盘', '缩容数据盘', '实例升配', '实例续费']);
  });

  it('send page, pageSize 10 and the filters from the URL, with whole local days as the time range', async () => {
    const api = mockApi({ 'GET /order': () => page([]) });
    renderPage(<OrdersPage />, '/x?status=UNPAID&type=NEW_PURCHASE&orderNo=2025&from=2025-01-01&to=2025-01-31&page=2');
    await screen.findByText('没有符合条件的订单');
    const url = new URL(String(api.fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      page: '2',
      pageSize: '10',
      status: 'UNPAID',
      type: 'NEW_PURCHASE',
      orderNo: '2025',
    });
    const start = new Date(url.searchParams.get('startTime') ?? '');
    const end = new Date(url.searchParams.get('endTime') ?? '');
    expect(end.getTime() - start.getTime()).toBe(31 * 24 * 3600 * 1000);
    expect(start.getHours()).toBe(0);
  });

  it('a malformed order number gets an inline hint and keeps the list; a valid prefix searches', async () => {
    const order = {
      orderNo: '20250101120000123456',
      type: 'NEW_PURCHASE',
      status: 'PAID',
      billingType: 'BUYOUT',
      title: 'RTX 4090 · 包月',
      originalAmount: 9900,
      paidAmount: 9900,
      createdAt: '2025-01-01T04:00:00Z',
    };
    const api = mockApi({ 'GET /order': () => page([order]) });
    const { router } = renderPage(<OrdersPage />, '/x');
    expect(await screen.findByText('20250101120000123456')).toBeTruthy();
    const box = screen.getByLabelText('订单号');
    fireEvent.change(box, { target: { value: 'O2025-01' } });
    pressEnter(box);
    const hint = await screen.findByRole('alert');
    expect(hint.textContent).toBe('订单号为20位数字，可只输入前几位');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(hint.id);
    // The list is as it was: no search sent, no error, the row still there.
    expect(callsTo(api.fetchMock, 'GET', '/order')).toHaveLength(1);
    expect(router.state.location.search).toBe('');
    expect(screen.getByText('20250101120000123456')).toBeTruthy();
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    expect(api.notify).not.toHaveBeenCalled();

    fireEvent.change(box, { target: { value: ' 2025 0101 ' } });
    expect(screen.queryByRole('alert')).toBeNull();
    pressEnter(box);
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/order')).toHaveLength(2));
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/order')[1]?.[0]), 'http://localhost');
    expect(url.searchParams.get('orderNo')).toBe('20250101');
  });

  it('a malformed order number in the URL is not sent and is pointed out', async () => {
    const api = mockApi({ 'GET /order': () => page([]) });
    renderPage(<OrdersPage />, '/x?orderNo=abc');
    expect((await screen.findByRole('alert')).textContent).toBe('订单号为20位数字，可只输入前几位');
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/order')).toHaveLength(1));
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/order')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.has('orderNo')).toBe(false);
  });

  it('ignore values that are not in the dictionaries', async () => {
    const api = mockApi({ 'GET /payment/recharge': () => page([]) });
    renderPage(<RechargeRecordPage />, '/x?status=BOGUS&channel=WXPAY');
    await screen.findByText('没有符合条件的充值记录');
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/payment/recharge')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.has('status')).toBe(false);
    expect(url.searchParams.get('channel')).toBe('WXPAY');
  });
});
