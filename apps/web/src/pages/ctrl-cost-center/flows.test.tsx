/** Behaviour of the cost-centre pages that act: pay / cancel orders, invoices, export, redeem. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingKeys } from '../../api/billing';
import { queryKeys } from '../../api/queryKeys';
import { useUserStore } from '../../stores/user';
import ExchangePage from '../exchange/index';
import BillsPage from './f-details/index';
import InvoicePage from './invoice/index';
import InvoiceInfoPage from './invoice-info/index';
import MakeBillInvoicePage from './make-bill-invoice/index';
import MakePriceInvoicePage from './make-price-invoice/index';
import OrderDetailPage from './order-detail/index';
import { buttonByText, buttonsByText, callsTo, failure, mockApi, ok, page, renderPage } from './testing';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The order and then its vouchers load one after the other: on a busy machine that takes over a second. */
const SLOW = { timeout: 5000 };
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const bodyOf = (call: Parameters<typeof fetch> | undefined) => JSON.parse(String(call?.[1]?.body)) as unknown;

const ORDER = {
  orderNo: 'O2025',
  type: 'NEW_TIME_PACKAGE',
  status: 'UNPAID',
  billingType: 'BUYOUT',
  title: '时长包 · 包月',
  originalAmount: 9900,
  discount: 0,
  paidAmount: 0,
  refundedAmount: 0,
  meteredAmount: 0,
  createdAt: '2025-01-01T00:00:00Z',
  paidAt: null,
  items: [{ name: 'RTX 3090 时长包', spec: '包月', quantity: 1, unit: '月', unitPrice: 9900, amount: 9900 }],
  voucher: null,
  transactions: [],
  canceledAt: null,
};

const voucher = (id: number, amount: number, name: string) => ({
  id,
  name,
  amount,
  minOrderAmount: 0,
  scope: [],
  validFrom: '2025-01-01T00:00:00Z',
  validTo: '2099-01-01T00:00:00Z',
  status: 'UNUSED',
  usedAt: null,
  usedOrderNo: null,
});

describe('订单详情 of an UNPAID order', () => {
  function setup() {
    let current: Record<string, unknown> = ORDER;
    return mockApi({
      'GET /order/O2025': () => ok(current),
      'GET /order/O2025/vouchers': () => ok([voucher(7, 3000, '满减券'), voucher(8, 500, '小额券')]),
      'POST /order/O2025/pay': (_url, init) => {
        const { voucherId } = JSON.parse(String(init?.body)) as { voucherId: number | null };
        const discount = voucherId === 7 ? 3000 : 0;
        current = { ...ORDER, status: 'PAID', discount, paidAmount: 9900 - discount, paidAt: '2025-01-01T00:05:00Z' };
        return ok(current);
      },
      'POST /order/O2025/cancel': () => {
        current = { ...ORDER, status: 'CANCELED', canceledAt: '2025-01-01T00:05:00Z' };
        return ok(current);
      },
    });
  }

  it('preselects the best voucher and pays with it after the confirmation, with an Idempotency-Key', async () => {
    const api = setup();
    const { queryClient } = renderPage(<OrderDetailPage />, '/x?orderNo=O2025');
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    expect(await screen.findByText('满减券：抵扣 ¥30.00（无门槛）', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('¥69.00')).toBeTruthy();

    fireEvent.click(buttonByText('支付'));
    const confirm = (await screen.findByText('将从账户余额扣除 ¥69.00，确认支付该订单？')).closest('[role="dialog"]') as HTMLElement;
    expect(buttonByText('再想想', confirm)).toBeTruthy();
    await act(async () => {
      fireEvent.click(buttonByText('确认支付', confirm));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/order/O2025/pay')).toHaveLength(1));
    const call = callsTo(api.fetchMock, 'POST', '/order/O2025/pay')[0];
    expect(bodyOf(call)).toEqual({ voucherId: 7 });
    expect(new Headers(call?.[1]?.headers).get('Idempotency-Key')).toMatch(UUID);
    expect(await screen.findByText('已支付')).toBeTruthy();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.balance });
  });

  it('pays without a voucher when 不使用代金券 is chosen', async () => {
    const api = setup();
    renderPage(<OrderDetailPage />, '/x?orderNo=O2025');
    await screen.findByText('满减券：抵扣 ¥30.00（无门槛）', undefined, SLOW);
    fireEvent.mouseDown(document.querySelector('[role="combobox"]') as HTMLElement);
    fireEvent.click(await screen.findByTitle('不使用代金券'));
    await waitFor(() => expect(screen.queryByText('¥69.00')).toBeNull());
    fireEvent.click(buttonByText('支付'));
    const confirm = (await screen.findByText('将从账户余额扣除 ¥99.00，确认支付该订单？')).closest('[role="dialog"]') as HTMLElement;
    await act(async () => {
      fireEvent.click(buttonByText('确认支付', confirm));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/order/O2025/pay')).toHaveLength(1));
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/order/O2025/pay')[0])).toEqual({ voucherId: null });
  });

  it('offers 去充值 when the balance is short, without a toast besides', async () => {
    const api = mockApi({
      'GET /order/O2025': () => ok(ORDER),
      'GET /order/O2025/vouchers': () => ok([]),
      'POST /order/O2025/pay': () => failure(400, 40031, '账户余额不足，请先充值'),
    });
    renderPage(<OrderDetailPage />, '/x?orderNo=O2025');
    expect(await screen.findByText('暂无可用代金券', undefined, SLOW)).toBeTruthy();
    fireEvent.click(buttonByText('支付'));
    const confirm = (await screen.findByText('将从账户余额扣除 ¥99.00，确认支付该订单？')).closest('[role="dialog"]') as HTMLElement;
    await act(async () => {
      fireEvent.click(buttonByText('确认支付', confirm));
    });
    expect(await screen.findByText('账户余额不足，请先充值后再支付。')).toBeTruthy();
    expect(screen.getByText('去充值').closest('a')).toBeTruthy();
    // The dialog closed so the hint is visible, and the error is shown once: in place.
    // (jsdom never ends antd's leave animation, so the dialog is seen leaving rather than gone.)
    await waitFor(() => expect(confirm.closest('.ant-modal')?.className).toMatch(/ant-zoom-leave/), SLOW);
    await nextTask();
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('cancels only after the confirmation, whose buttons name the action', async () => {
    const api = setup();
    renderPage(<OrderDetailPage />, '/x?orderNo=O2025');
    await screen.findByText('满减券：抵扣 ¥30.00（无门槛）', undefined, SLOW);
    fireEvent.click(buttonByText('取消订单'));
    expect(callsTo(api.fetchMock, 'POST', '/order/O2025/cancel')).toHaveLength(0);
    const dialog = (await screen.findByText('取消后订单不可恢复，需要时请重新下单。')).closest('[role="dialog"]') as HTMLElement;
    expect(buttonByText('再想想', dialog)).toBeTruthy();
    expect(buttonsByText('确定', dialog)).toHaveLength(0);
    await act(async () => {
      fireEvent.click(buttonByText('取消订单', dialog));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/order/O2025/cancel')).toHaveLength(1));
    expect(await screen.findByText('已取消')).toBeTruthy();
  });
});

const INVOICE = {
  id: 11,
  type: 'ORDINARY',
  method: 'RECHARGE',
  status: 'PENDING',
  statusCode: 1,
  amount: 20000,
  title: '算力港测试科技有限公司',
  titleType: 'ENTERPRISE',
  profile: {
    titleType: 'ENTERPRISE',
    title: '算力港测试科技有限公司',
    taxNo: '91110108MA01ABCD2X',
    bankName: null,
    bankAccount: null,
    address: null,
    phone: null,
    email: 'finance@example.com',
  },
  items: [{ rechargeId: 'RC1', month: null, amount: 20000 }],
  invoiceNo: null,
  hasPdf: false,
  rejectReason: null,
  remark: null,
  createdAt: '2025-01-01T00:00:00Z',
  decidedAt: null,
};

const INVOICEABLE = {
  recharges: [
    { rechargeId: 'RC1', channel: 'WXPAY', amount: 20000, invoiced: 0, invoiceable: 20000, paidAt: '2025-01-01T00:00:00Z' },
    { rechargeId: 'RC2', channel: 'ALIPAY', amount: 1234, invoiced: 1234, invoiceable: 0, paidAt: '2025-01-02T00:00:00Z' },
    { rechargeId: 'RC3', channel: 'ALIPAY', amount: 50, invoiced: 0, invoiceable: 50, paidAt: '2025-01-03T00:00:00Z' },
  ],
  months: [],
  cashTotal: 21284,
  invoicedTotal: 1234,
  available: 20050,
};

describe('发票管理', () => {
  it('shows the invoiceable summary, the status tags and their actions; 取消申请 asks first', async () => {
    const api = mockApi({
      'GET /invoice/invoiceable': () => ok(INVOICEABLE),
      'GET /invoice': () =>
        page([
          INVOICE,
          { ...INVOICE, id: 12, status: 'SUCCESS', statusCode: 2, invoiceNo: 'NO123', hasPdf: true },
          { ...INVOICE, id: 13, status: 'REJECTED', statusCode: 3, rejectReason: '抬头与税号不符' },
        ]),
      'POST /invoice/11/cancel': () => ok({ ...INVOICE, status: 'CANCELED', statusCode: null }),
    });
    renderPage(<InvoicePage />);
    expect(await screen.findByText('¥200.50')).toBeTruthy();
    expect(await screen.findByText('审核中')).toBeTruthy();
    expect(screen.getByText('已开票')).toBeTruthy();
    expect(screen.getByText('已驳回')).toBeTruthy();
    expect(screen.getByLabelText('驳回原因')).toBeTruthy();
    expect(buttonsByText('下载')).toHaveLength(1);
    expect(buttonByText('按充值开票')).toBeTruthy();
    expect(buttonByText('按账单开票')).toBeTruthy();
    // Requested, not issued: the summary counts applications under review with the issued ones.
    expect(screen.getByText('已申请开票（审核中＋已开票）')).toBeTruthy();
    expect(screen.getByText('申请金额', { selector: 'th' })).toBeTruthy();

    fireEvent.click(buttonByText('取消申请'));
    expect(callsTo(api.fetchMock, 'POST', '/invoice/11/cancel')).toHaveLength(0);
    const dialog = (await screen.findByText('取消后 ¥200.00 退回可开票金额，之后可以重新申请。')).closest('[role="dialog"]') as HTMLElement;
    expect(buttonByText('再想想', dialog)).toBeTruthy();
    expect(buttonsByText('确定', dialog)).toHaveLength(0);
    await act(async () => {
      fireEvent.click(buttonByText('取消申请', dialog));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/invoice/11/cancel')).toHaveLength(1));
  }, 60_000);

  it('opens the detail of an invoice: title snapshot, items, amounts, number, PDF; a rejected one says why', async () => {
    const issued = {
      ...INVOICE,
      id: 12,
      status: 'SUCCESS',
      statusCode: 2,
      invoiceNo: '04400230011112345678',
      hasPdf: true,
      remark: '请尽快开具',
      decidedAt: '2025-01-03T02:00:00Z',
      items: [
        { rechargeId: 'RC1', month: null, amount: 15000 },
        { rechargeId: 'RC2', month: null, amount: 5000 },
      ],
    };
    const rejected = { ...INVOICE, id: 13, status: 'REJECTED', statusCode: 3, rejectReason: '抬头与税号不符', decidedAt: '2025-01-02T00:00:00Z' };
    mockApi({
      'GET /invoice/invoiceable': () => ok(INVOICEABLE),
      'GET /invoice': () => page([issued, rejected]),
      'GET /invoice/12': () => ok(issued),
      'GET /invoice/13': () => ok(rejected),
    });
    renderPage(<InvoicePage />);
    await screen.findByText('04400230011112345678');
    const rows = buttonsByText('查看详情');
    fireEvent.click(rows[0] as HTMLElement);
    const drawer = (await screen.findByText('发票详情')).closest('[role="dialog"]') as HTMLElement;
    expect(within(drawer).getByText('算力港测试科技有限公司（企业）')).toBeTruthy();
    // The rest of the snapshot: filled fields only.
    expect(within(drawer).getByText('91110108MA01ABCD2X')).toBeTruthy();
    expect(within(drawer).getByText('finance@example.com')).toBeTruthy();
    expect(within(drawer).queryByText('开户银行')).toBeNull();
    expect(within(drawer).getByText('申请金额')).toBeTruthy();
    expect(within(drawer).getByText('开票金额')).toBeTruthy();
    expect(within(drawer).getAllByText('¥200.00')).toHaveLength(2);
    expect(within(drawer).getByText('04400230011112345678')).toBeTruthy();
    expect(within(drawer).getByText('发票号码')).toBeTruthy();
    expect(within(drawer).getByText('请尽快开具')).toBeTruthy();
    expect(within(drawer).getByText('开具时间')).toBeTruthy();
    expect(within(drawer).getByText('RC2')).toBeTruthy();
    expect(within(drawer).getByText('¥150.00')).toBeTruthy();
    expect(buttonByText('下载发票 PDF', drawer)).toBeTruthy();
    expect(buttonsByText('取消申请', drawer)).toHaveLength(0);

    fireEvent.click(drawer.querySelector('button[aria-label="关闭"]') as HTMLElement);
    fireEvent.click(rows[1] as HTMLElement);
    const rejectedDrawer = (await within(drawer).findByText('抬头与税号不符')).closest('[role="dialog"]') as HTMLElement;
    expect(within(rejectedDrawer).getByText('未开具（已驳回）')).toBeTruthy();
    expect(buttonsByText('下载发票 PDF', rejectedDrawer)).toHaveLength(0);
  }, 60_000);
});

describe('按账单开票', () => {
  it('shows what gifts and vouchers paid as not invoiceable next to what can be requested', async () => {
    mockApi({
      'GET /invoice/invoiceable': () =>
        ok({
          ...INVOICEABLE,
          months: [{ month: '2025-01', consumption: 10000, giftPaid: 2000, voucherPaid: 3000, invoiced: 1000, invoiceable: 7000 }],
        }),
      'GET /invoice/info': () =>
        ok({ titleType: 'PERSONAL', title: '张三', taxNo: null, bankName: null, bankAccount: null, address: null, phone: null, email: 'a@b.cn' }),
    });
    renderPage(<MakeBillInvoicePage />);
    const row = (await screen.findByText('2025-01', { selector: 'td' })).closest('tr') as HTMLElement;
    const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent);
    expect(cells).toEqual(['', '2025-01', '¥100.00', '¥20.00', '¥30.00', '¥10.00', '¥70.00']);
    expect(screen.getAllByText('其中赠送金额支付').length).toBeGreaterThan(0);
    expect(screen.getAllByText('代金券抵扣').length).toBeGreaterThan(0);
    expect(screen.getByText(/代金券抵扣不经过余额，也不可开票/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText('选择 2025-01'));
    expect(await screen.findByText('已选 1 项，申请金额：')).toBeTruthy();
    expect(document.querySelector('.slg-price-total')?.textContent).toBe('¥70.00');
  });
});

describe('按充值开票', () => {
  it('totals the selected rows, keeps 专用 disabled for a personal title, and submits', async () => {
    const api = mockApi({
      'GET /invoice/invoiceable': () => ok(INVOICEABLE),
      'GET /invoice/info': () =>
        ok({ titleType: 'PERSONAL', title: '张三', taxNo: null, bankName: null, bankAccount: null, address: null, phone: null, email: 'a@b.cn' }),
      'POST /invoice': () => ok(INVOICE),
    });
    const { router } = renderPage(<MakePriceInvoicePage />, '/ctrl-cost-center/cost-center/make-price-invoice');
    const rc2 = await screen.findByLabelText('选择 RC2');
    expect((rc2 as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('增值税专用发票') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('专用发票仅支持企业抬头')).toBeTruthy();
    expect(buttonByText('提交申请').disabled).toBe(true);

    fireEvent.click(screen.getByLabelText('选择 RC3'));
    expect(await screen.findByText('申请金额不能低于 ¥1.00')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('选择 RC1'));
    expect(await screen.findByText('已选 2 项，申请金额：')).toBeTruthy();
    expect(screen.getByText('¥200.50')).toBeTruthy();
    await act(async () => {
      fireEvent.click(buttonByText('提交申请'));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/invoice')).toHaveLength(1));
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/invoice')[0])).toEqual({ method: 'RECHARGE', type: 'ORDINARY', rechargeIds: ['RC3', 'RC1'] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-cost-center/cost-center/invoice'));
  });

  it('allows 专用 with a complete enterprise profile', async () => {
    mockApi({
      'GET /invoice/invoiceable': () => ok(INVOICEABLE),
      'GET /invoice/info': () =>
        ok({ titleType: 'ENTERPRISE', title: '某公司', taxNo: '91330100MA2XXXXX1Y', bankName: '招商银行', bankAccount: '6225', address: '杭州', phone: '0571-1', email: 'a@b.cn' }),
    });
    renderPage(<MakePriceInvoicePage />);
    const special = await screen.findByLabelText('增值税专用发票');
    expect((special as HTMLInputElement).disabled).toBe(false);
  });
});

describe('发票信息', () => {
  it('requires a tax number for an enterprise title and saves the normalised profile', async () => {
    const api = mockApi({
      'GET /invoice/info': () => ok(null),
      'PUT /invoice/info': (_url, init) => ok(JSON.parse(String(init?.body))),
    });
    const { router } = renderPage(<InvoiceInfoPage />);
    fireEvent.click(await screen.findByLabelText('企业'));
    fireEvent.change(screen.getByLabelText('发票抬头'), { target: { value: ' 某公司 ' } });
    fireEvent.change(screen.getByLabelText('接收邮箱'), { target: { value: 'finance@example.com' } });
    // Even a click before the tax number field shows validates it.
    fireEvent.click(buttonByText('保存'));
    expect(await screen.findByText('企业抬头必须填写税号')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'PUT', '/invoice/info')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('税号'), { target: { value: '91330100ma2xxxxx1y' } });
    fireEvent.change(screen.getByLabelText('银行账号'), { target: { value: 'abc' } });
    fireEvent.click(buttonByText('保存'));
    expect(await screen.findByText('银行账号只能包含数字、空格或短横线（4–40位）')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('银行账号'), { target: { value: '6225 8888 0000' } });
    await act(async () => {
      fireEvent.click(buttonByText('保存'));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'PUT', '/invoice/info')).toHaveLength(1));
    expect(bodyOf(callsTo(api.fetchMock, 'PUT', '/invoice/info')[0])).toEqual({
      titleType: 'ENTERPRISE',
      title: '某公司',
      taxNo: '91330100MA2XXXXX1Y',
      bankName: null,
      bankAccount: '6225 8888 0000',
      address: null,
      phone: null,
      email: 'finance@example.com',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-cost-center/cost-center/invoice'));
  });
});

describe('账单明细 export', () => {
  it('downloads GET /bills/export with the list filters', async () => {
    const createObjectURL = vi.fn(() => 'blob:bills');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const api = mockApi({
      'GET /bills': () => page([]),
      'GET /bills/export': () =>
        new Response('\uFEFF时间,金额\n', {
          status: 200,
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': "attachment; filename*=UTF-8''%E8%B4%A6%E5%8D%95.csv" },
        }),
    });
    renderPage(<BillsPage />, '/x?orderType=NEW_PURCHASE');
    await screen.findByText('没有符合条件的账单');
    await act(async () => {
      fireEvent.click(buttonByText('导出 CSV'));
    });
    await waitFor(() => expect(click).toHaveBeenCalled());
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/bills/export')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('orderType')).toBe('NEW_PURCHASE');
    expect(url.searchParams.has('page')).toBe(false);
    expect(createObjectURL).toHaveBeenCalled();
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe('账单.csv');
  });
});

describe('兑换码兑换', () => {
  it('asks a signed-out visitor to log in first', async () => {
    mockApi({});
    useUserStore.getState().clear();
    const { router } = renderPage(<ExchangePage />, '/exchange');
    fireEvent.click(await waitFor(() => buttonByText('登录后兑换')));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/login?redirect=%2Fexchange'));
  });

  it('a failure to reach the server is one toast, not a message on the code field', async () => {
    const api = mockApi({
      'POST /voucher/redeem': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderPage(<ExchangePage />, '/exchange');
    fireEvent.change(await screen.findByLabelText('兑换码'), { target: { value: 'ABCD' } });
    await act(async () => {
      fireEvent.click(buttonByText('兑换'));
    });
    await waitFor(() => expect(api.notify).toHaveBeenCalledTimes(1));
    expect(api.notify).toHaveBeenCalledWith('网络连接失败，请检查网络后重试');
    expect(screen.queryByText('网络连接失败，请检查网络后重试')).toBeNull();
  });

  it('shows the server message under the input and, on success, what was credited', async () => {
    let attempts = 0;
    const api = mockApi({
      'POST /voucher/redeem': () => {
        attempts += 1;
        return attempts === 1
          ? failure(400, 40033, '兑换码不存在或已失效')
          : ok({ kind: 'BALANCE', amount: 1000, voucher: null });
      },
    });
    const { queryClient } = renderPage(<ExchangePage />, '/exchange');
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const input = await screen.findByLabelText('兑换码');
    fireEvent.change(input, { target: { value: '  abcd efgh ' } });
    expect((input as HTMLInputElement).value).toBe('ABCDEFGH');
    await act(async () => {
      fireEvent.click(buttonByText('兑换'));
    });
    expect(await screen.findByText('兑换码不存在或已失效')).toBeTruthy();
    await nextTask();
    expect(api.notify).not.toHaveBeenCalled();
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/voucher/redeem')[0])).toEqual({ code: 'ABCDEFGH' });

    await act(async () => {
      fireEvent.click(buttonByText('兑换'));
    });
    expect(await screen.findByText('兑换成功')).toBeTruthy();
    expect(screen.getByText('余额 ¥10.00 已到账')).toBeTruthy();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.balance });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: billingKeys.all });
  });
});
