import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCodes } from '@slg/shared';
import { call, createTestApp, loginToken, registerUser, type TestApp } from '../../../test/helpers.js';
import { auditLogs, vouchers } from '../../db/schema/index.js';
import { walletsOutOfBalance } from '../billing/ledger.js';
import { OrderService } from '../billing/orders.js';
import { cashRecharge, makeOperator, multipartBody, openOrder, spend, userIdOf } from './test-factories.js';

let t: TestApp;
let dataDir: string;
let operatorPhone: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'slg-invoices-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  operatorPhone = (await registerUser(t)).telephone;
  await makeOperator(t.deps.database.db, operatorPhone);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const db = () => t.deps.database.db;

interface InvoiceView {
  id: number;
  type: string;
  method: string;
  status: 'PENDING' | 'SUCCESS' | 'REJECTED' | 'CANCELED';
  statusCode: 1 | 2 | 3 | null;
  amount: number;
  title: string;
  titleType: string;
  profile: Record<string, string | null>;
  items: { rechargeId: string | null; month: string | null; amount: number }[];
  invoiceNo: string | null;
  hasPdf: boolean;
  rejectReason: string | null;
  remark: string | null;
  createdAt: string;
  decidedAt: string | null;
}
interface Invoiceable {
  recharges: { rechargeId: string; channel: string; amount: number; invoiced: number; invoiceable: number; paidAt: string | null }[];
  months: { month: string; consumption: number; giftPaid: number; voucherPaid: number; invoiced: number; invoiceable: number }[];
  cashTotal: number;
  invoicedTotal: number;
  available: number;
}

const PERSONAL = { titleType: 'PERSONAL', title: '张三', email: 'zhangsan@example.com' };
const ENTERPRISE_FULL = {
  titleType: 'ENTERPRISE',
  title: '算力港测试科技有限公司',
  taxNo: '91310000MA1FL0XX1X',
  bankName: '招商银行上海分行',
  bankAccount: '6225 8800 1234 5678',
  address: '上海市浦东新区测试路1号',
  phone: '021-12345678',
  email: 'finance@example.com',
};

/** A main account with an invoice profile; returns its token and id. */
async function customer(profile: Record<string, unknown> | null = PERSONAL) {
  const user = await registerUser(t);
  const id = await userIdOf(db(), user.telephone);
  if (profile) {
    const saved = await call(t.app, { method: 'PUT', url: '/api/v1/invoice/info', token: user.jwtToken, payload: profile });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  return { ...user, id };
}

const invoiceable = async (token: string) =>
  (await call<Invoiceable>(t.app, { method: 'GET', url: '/api/v1/invoice/invoiceable', token })).body.result;

const requestInvoice = (token: string, payload: Record<string, unknown>) =>
  call<InvoiceView>(t.app, { method: 'POST', url: '/api/v1/invoice', token, payload });

const recharge = (userId: number, amountFen: number) => cashRecharge(db(), { userId, amountFen, now: t.deps.now() });

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function issue(invoiceId: number, fields: Record<string, string>, file?: Parameters<typeof multipartBody>[1]) {
  const body = multipartBody(fields, file);
  return call<InvoiceView>(t.app, {
    method: 'POST',
    url: `/api/v1/admin/invoices/${invoiceId}/issue`,
    token: await loginToken(t, operatorPhone),
    payload: body.payload,
    headers: body.headers,
  });
}

describe('invoice profile', () => {
  it('is null until saved, then returns what was saved (tax number upper-cased)', async () => {
    const user = await customer(null);
    const empty = await call(t.app, { method: 'GET', url: '/api/v1/invoice/info', token: user.jwtToken });
    expect(empty.status).toBe(200);
    expect(empty.body.result).toBeNull();

    const saved = await call(t.app, {
      method: 'PUT',
      url: '/api/v1/invoice/info',
      token: user.jwtToken,
      payload: { ...ENTERPRISE_FULL, taxNo: '91310000ma1fl0xx1x' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toEqual({ ...ENTERPRISE_FULL });
    const read = await call(t.app, { method: 'GET', url: '/api/v1/invoice/info', token: user.jwtToken });
    expect(read.body.result).toEqual({ ...ENTERPRISE_FULL });

    const personal = await call(t.app, { method: 'PUT', url: '/api/v1/invoice/info', token: user.jwtToken, payload: { ...PERSONAL, taxNo: '' } });
    expect(personal.body.result).toEqual({ ...PERSONAL, taxNo: null, bankName: null, bankAccount: null, address: null, phone: null });
  });

  it('refuses an enterprise title without a valid tax number and a missing or bad email', async () => {
    const user = await customer(null);
    const put = (payload: Record<string, unknown>) => call(t.app, { method: 'PUT', url: '/api/v1/invoice/info', token: user.jwtToken, payload });
    const noTaxNo = await put({ titleType: 'ENTERPRISE', title: '某公司', email: 'a@example.com' });
    expect(noTaxNo.status).toBe(400);
    expect(noTaxNo.body.rspmsg).toBe('企业抬头必须填写税号');
    expect((await put({ titleType: 'ENTERPRISE', title: '某公司', taxNo: '12345678901234', email: 'a@example.com' })).body.rspmsg).toBe(
      '税号应为15-20位大写字母或数字',
    );
    expect((await put({ titleType: 'ENTERPRISE', title: '某公司', taxNo: '91310000MA1FL0X!1X', email: 'a@example.com' })).status).toBe(400);
    expect((await put({ ...PERSONAL, email: undefined })).body.rspmsg).toBe('请输入接收邮箱');
    expect((await put({ ...PERSONAL, email: 'not-an-email' })).body.rspmsg).toBe('接收邮箱格式不正确');
    expect((await put({ ...PERSONAL, titleType: 'COMPANY' })).body.rspmsg).toContain('抬头类型');
    expect((await put({ ...PERSONAL, title: '  ' })).body.rspmsg).toBe('请输入发票抬头');
    const nothing = await call(t.app, { method: 'GET', url: '/api/v1/invoice/info', token: user.jwtToken });
    expect(nothing.body.result).toBeNull();
  });
});

describe('invoicing by recharge', () => {
  it('invoices selected recharges, holds their amount until rejected or canceled, and snapshots the profile', async () => {
    const user = await customer();
    const first = await recharge(user.id, 10_000);
    const second = await recharge(user.id, 5_000);
    const pool = await invoiceable(user.jwtToken);
    expect(pool).toMatchObject({ cashTotal: 15_000, invoicedTotal: 0, available: 15_000, months: [] });
    expect(pool.recharges.map((row) => [row.rechargeId, row.amount, row.invoiced, row.invoiceable]).sort()).toEqual(
      [
        [first, 10_000, 0, 10_000],
        [second, 5_000, 0, 5_000],
      ].sort(),
    );

    const requested = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [first], remark: '请尽快' });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    expect(requested.body.result).toMatchObject({
      type: 'ORDINARY',
      method: 'RECHARGE',
      status: 'PENDING',
      statusCode: 1,
      amount: 10_000,
      title: '张三',
      titleType: 'PERSONAL',
      items: [{ rechargeId: first, month: null, amount: 10_000 }],
      invoiceNo: null,
      hasPdf: false,
      rejectReason: null,
      remark: '请尽快',
      decidedAt: null,
    });
    const invoiceId = requested.body.result.id;
    expect(await invoiceable(user.jwtToken)).toMatchObject({ invoicedTotal: 10_000, available: 5_000 });

    const twice = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [first] });
    expect(twice.status).toBe(400);
    expect(twice.body.rspcode).toBe(ErrorCodes.INVOICE_AMOUNT_EXCEEDED.code);

    // The profile is a snapshot: editing it later does not change the invoice.
    await call(t.app, { method: 'PUT', url: '/api/v1/invoice/info', token: user.jwtToken, payload: { ...PERSONAL, title: '李四' } });
    const detail = await call<InvoiceView>(t.app, { method: 'GET', url: `/api/v1/invoice/${invoiceId}`, token: user.jwtToken });
    expect(detail.body.result.title).toBe('张三');

    const canceled = await call<InvoiceView>(t.app, { method: 'POST', url: `/api/v1/invoice/${invoiceId}/cancel`, token: user.jwtToken });
    expect(canceled.body.result).toMatchObject({ status: 'CANCELED', statusCode: null });
    expect(canceled.body.result.decidedAt).not.toBeNull();
    expect(await invoiceable(user.jwtToken)).toMatchObject({ invoicedTotal: 0, available: 15_000 });
    const cancelAgain = await call(t.app, { method: 'POST', url: `/api/v1/invoice/${invoiceId}/cancel`, token: user.jwtToken });
    expect(cancelAgain.status).toBe(409);

    const both = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [first, second, first] });
    expect(both.body.result).toMatchObject({ amount: 15_000, title: '李四' });
    expect(await invoiceable(user.jwtToken)).toMatchObject({ available: 0 });

    const rejected = await call<InvoiceView>(t.app, {
      method: 'POST',
      url: `/api/v1/admin/invoices/${both.body.result.id}/reject`,
      token: await loginToken(t, operatorPhone),
      payload: { reason: '抬头有误' },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.result).toMatchObject({ status: 'REJECTED', statusCode: 3, rejectReason: '抬头有误' });
    expect(await invoiceable(user.jwtToken)).toMatchObject({ invoicedTotal: 0, available: 15_000 });
    // A decided invoice cannot be canceled, rejected again or issued.
    expect((await call(t.app, { method: 'POST', url: `/api/v1/invoice/${both.body.result.id}/cancel`, token: user.jwtToken })).status).toBe(409);
    expect((await issue(both.body.result.id, { invoiceNo: '12345678' }, { filename: 'a.pdf', contentType: 'application/pdf', content: PDF })).status).toBe(409);

    const list = await call<{ list: InvoiceView[]; total: number }>(t.app, { method: 'GET', url: '/api/v1/invoice?status=REJECTED', token: user.jwtToken });
    expect(list.body.result.total).toBe(1);
    expect(list.body.result.list[0]?.items).toHaveLength(2);
    const all = await call<{ list: InvoiceView[]; total: number }>(t.app, { method: 'GET', url: '/api/v1/invoice', token: user.jwtToken });
    expect(all.body.result.list.map((invoice) => invoice.status)).toEqual(['REJECTED', 'CANCELED']);
  });

  it('refuses unknown recharges, empty selections, tiny amounts and requests without a profile', async () => {
    const user = await customer();
    const unknown = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: ['RC000'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.rspmsg).toContain('RC000');
    expect((await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [] })).body.rspmsg).toBe(
      '请选择要开票的充值记录',
    );
    expect((await requestInvoice(user.jwtToken, { method: 'BILL', type: 'ORDINARY', months: ['2026-13'] })).body.rspmsg).toBe(
      '账单月份格式应为 yyyy-mm',
    );
    expect((await requestInvoice(user.jwtToken, { type: 'ORDINARY', rechargeIds: ['x'] })).body.rspmsg).toContain('开票方式');

    const other = await customer();
    const othersRecharge = await recharge(other.id, 5_000);
    expect((await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [othersRecharge] })).status).toBe(400);

    const small = await recharge(user.id, 99);
    const tiny = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [small] });
    expect(tiny.status).toBe(400);
    expect(tiny.body.rspmsg).toBe('开票金额不能低于¥1.00');

    const noProfile = await customer(null);
    const theirs = await recharge(noProfile.id, 1_000);
    const missing = await requestInvoice(noProfile.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [theirs] });
    expect(missing.status).toBe(400);
    expect(missing.body.rspmsg).toBe('请先填写发票信息');
  });

  it('lets only one of several concurrent requests take the same recharge', async () => {
    const user = await customer();
    const id = await recharge(user.id, 20_000);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [id] })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(results.find((result) => result.status === 400)?.body.rspcode).toBe(ErrorCodes.INVOICE_AMOUNT_EXCEEDED.code);
    expect(await invoiceable(user.jwtToken)).toMatchObject({ invoicedTotal: 20_000, available: 0 });
  });

  it('issues SPECIAL invoices only for a complete enterprise profile', async () => {
    const user = await customer();
    const id = await recharge(user.id, 3_000);
    const special = { method: 'RECHARGE', type: 'SPECIAL', rechargeIds: [id] };
    const personal = await requestInvoice(user.jwtToken, special);
    expect(personal.status).toBe(400);
    expect(personal.body.rspmsg).toContain('增值税专用发票需要企业抬头');
    const { bankName: _bankName, ...withoutBank } = ENTERPRISE_FULL;
    await call(t.app, { method: 'PUT', url: '/api/v1/invoice/info', token: user.jwtToken, payload: withoutBank });
    expect((await requestInvoice(user.jwtToken, special)).status).toBe(400);
    await call(t.app, { method: 'PUT', url: '/api/v1/invoice/info', token: user.jwtToken, payload: ENTERPRISE_FULL });
    const ok = await requestInvoice(user.jwtToken, special);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ type: 'SPECIAL', titleType: 'ENTERPRISE', title: ENTERPRISE_FULL.title, amount: 3_000 });
  });
});

describe('invoicing by bill month', () => {
  it('counts what the wallet paid per China month net of refunds, and caps everything at the cash recharged', async () => {
    const user = await customer();
    const rechargeId = await recharge(user.id, 10_000);
    const order = await spend(db(), t.deps.now, user.id, 3_000);
    await db().transaction((tx) => new OrderService(t.deps.now).refund(tx, order.id, 500, '测试退款'));

    const pool = await invoiceable(user.jwtToken);
    expect(pool.months).toEqual([{ month: '2026-06', consumption: 2_500, giftPaid: 0, voucherPaid: 0, invoiced: 0, invoiceable: 2_500 }]);

    const july = await requestInvoice(user.jwtToken, { method: 'BILL', type: 'ORDINARY', months: ['2026-07'] });
    expect(july.status).toBe(400);
    expect(july.body.rspcode).toBe(ErrorCodes.INVOICE_AMOUNT_EXCEEDED.code);

    const bill = await requestInvoice(user.jwtToken, { method: 'BILL', type: 'ORDINARY', months: ['2026-06'] });
    expect(bill.status, JSON.stringify(bill.body)).toBe(200);
    expect(bill.body.result).toMatchObject({ method: 'BILL', amount: 2_500, items: [{ rechargeId: null, month: '2026-06', amount: 2_500 }] });
    // The owner sees the invoice information as it was when the application was filed.
    expect(bill.body.result.profile).toMatchObject({ titleType: PERSONAL.titleType, title: PERSONAL.title, email: PERSONAL.email });

    // The recharge itself still shows 10,000 not invoiced, but only 7,500 of cash is left overall.
    const after = await invoiceable(user.jwtToken);
    expect(after).toMatchObject({ cashTotal: 10_000, invoicedTotal: 2_500, available: 7_500 });
    expect(after.recharges[0]).toMatchObject({ rechargeId, invoiced: 0, invoiceable: 7_500 });
    // Requesting the recharge takes exactly the 7,500 offered; after that nothing is left to invoice twice.
    const rest = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [rechargeId] });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.result).toMatchObject({ amount: 7_500 });
    expect(await invoiceable(user.jwtToken)).toMatchObject({ available: 0 });
    const double = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [rechargeId] });
    expect(double.status).toBe(400);
    expect(double.body.rspcode).toBe(ErrorCodes.INVOICE_AMOUNT_EXCEEDED.code);

    // Consumption at 23:30 China time on 30 June still belongs to June; 00:30 on 1 July to July.
    await recharge(user.id, 5_000);
    const toJune30 = (Date.parse('2026-06-30T15:30:00Z') - t.deps.now().getTime()) / 1000;
    t.clock.advance(toJune30);
    await spend(db(), t.deps.now, user.id, 1_000);
    t.clock.advance(3600);
    await spend(db(), t.deps.now, user.id, 700);
    const token = await loginToken(t, user.telephone);
    expect((await invoiceable(token)).months).toEqual([
      { month: '2026-07', consumption: 700, giftPaid: 0, voucherPaid: 0, invoiced: 0, invoiceable: 700 },
      { month: '2026-06', consumption: 3_500, giftPaid: 0, voucherPaid: 0, invoiced: 2_500, invoiceable: 1_000 },
    ]);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('never makes gift balance or voucher money invoiceable', async () => {
    const operatorToken = await loginToken(t, operatorPhone);
    const user = await customer();
    const codes = await call<{ codes: string[] }>(t.app, {
      method: 'POST',
      url: '/api/v1/admin/redeem-codes',
      token: operatorToken,
      payload: { name: '赠送', count: 1, kind: 'BALANCE', amount: 5_000, expiresInDays: 7 },
    });
    const code = codes.body.result.codes[0];
    expect((await call(t.app, { method: 'POST', url: '/api/v1/voucher/redeem', token: user.jwtToken, payload: { code } })).status).toBe(200);
    await spend(db(), t.deps.now, user.id, 3_000);

    await call(t.app, {
      method: 'POST',
      url: '/api/v1/admin/vouchers',
      token: operatorToken,
      payload: { telephones: [user.telephone], name: '满减券', amount: 2_000, validDays: 7 },
    });
    const [voucher] = await db().select().from(vouchers).where(eq(vouchers.ownerId, user.id));
    if (!voucher) throw new Error('no voucher');
    const order = await openOrder(db(), t.deps.now, user.id, 2_000);
    await db().transaction((tx) => new OrderService(t.deps.now).pay(tx, order.id, { mode: 'use', voucherId: voucher.id }));

    const pool = await invoiceable(user.jwtToken);
    const month = pool.months[0]?.month;
    expect(pool).toMatchObject({ cashTotal: 0, available: 0, recharges: [] });
    // The wallet paid 3,000 (all of it gift money); the voucher-paid 2,000 never touched the wallet.
    expect(pool.months).toEqual([{ month, consumption: 3_000, giftPaid: 3_000, voucherPaid: 2_000, invoiced: 0, invoiceable: 0 }]);
    const refused = await requestInvoice(user.jwtToken, { method: 'BILL', type: 'ORDINARY', months: [month] });
    expect(refused.status).toBe(400);
    expect(refused.body.rspcode).toBe(ErrorCodes.INVOICE_AMOUNT_EXCEEDED.code);

    // Cash recharged later does not make the gift-paid month invoiceable: what is offered is what can be requested.
    await recharge(user.id, 1_000);
    expect((await invoiceable(user.jwtToken)).months[0]).toMatchObject({ consumption: 3_000, giftPaid: 3_000, invoiceable: 0 });
    expect((await requestInvoice(user.jwtToken, { method: 'BILL', type: 'ORDINARY', months: [month] })).status).toBe(400);
  });
});

describe('issuing and downloading the PDF', () => {
  it('stores the operator’s PDF and lets only the owner download it', async () => {
    const user = await customer();
    const id = await recharge(user.id, 8_800);
    const requested = await requestInvoice(user.jwtToken, { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [id] });
    const invoiceId = requested.body.result.id;
    const pdfUrl = `/api/v1/invoice/${invoiceId}/pdf`;
    expect((await call(t.app, { method: 'GET', url: pdfUrl, token: user.jwtToken })).status).toBe(404);

    const file = { filename: 'invoice.pdf', contentType: 'application/pdf', content: PDF };
    const notPdf = await issue(invoiceId, { invoiceNo: '24312000000012345678' }, { ...file, content: Buffer.from('hello') });
    expect(notPdf.status).toBe(400);
    expect(notPdf.body.rspmsg).toBe('发票文件必须是 PDF 格式');
    expect((await issue(invoiceId, {}, file)).body.rspmsg).toBe('请输入发票号码');
    expect((await issue(invoiceId, { invoiceNo: '../../etc' }, file)).body.rspmsg).toBe('发票号码应为1-64位字母、数字或短横线');
    expect((await issue(invoiceId, { invoiceNo: '24312000000012345678' })).body.rspmsg).toBe('请上传发票 PDF 文件');
    const json = await call(t.app, {
      method: 'POST',
      url: `/api/v1/admin/invoices/${invoiceId}/issue`,
      token: await loginToken(t, operatorPhone),
      payload: { invoiceNo: '1' },
    });
    expect(json.status).toBe(415);
    const huge = await issue(invoiceId, { invoiceNo: '24312000000012345678' }, { ...file, content: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]) });
    expect(huge.status).toBe(413);
    expect(huge.body.rspmsg).toBe('发票文件不能超过10MB');

    const issued = await issue(invoiceId, { invoiceNo: '24312000000012345678' }, file);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.result).toMatchObject({ status: 'SUCCESS', statusCode: 2, invoiceNo: '24312000000012345678', hasPdf: true });
    const stored = join(dataDir, 'invoices', `${invoiceId}.pdf`);
    expect(existsSync(stored)).toBe(true);
    expect(readFileSync(stored).equals(PDF)).toBe(true);
    expect((await issue(invoiceId, { invoiceNo: '99999999' }, file)).status).toBe(409);
    // Issued invoices keep holding their amount, and cannot be canceled by the user.
    expect(await invoiceable(user.jwtToken)).toMatchObject({ invoicedTotal: 8_800, available: 0 });
    expect((await call(t.app, { method: 'POST', url: `/api/v1/invoice/${invoiceId}/cancel`, token: user.jwtToken })).status).toBe(409);

    const download = await t.app.inject({ method: 'GET', url: pdfUrl, headers: { authorization: `Bearer ${user.jwtToken}` } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe('attachment; filename="invoice-24312000000012345678.pdf"');
    expect(download.rawPayload.equals(PDF)).toBe(true);

    const stranger = await customer();
    expect((await call(t.app, { method: 'GET', url: pdfUrl, token: stranger.jwtToken })).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: `/api/v1/invoice/${invoiceId}`, token: stranger.jwtToken })).status).toBe(404);
    expect((await call(t.app, { method: 'POST', url: `/api/v1/invoice/${invoiceId}/cancel`, token: stranger.jwtToken })).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/invoice/abc', token: stranger.jwtToken })).body.rspmsg).toBe('发票编号必须是数字');

    const audit = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(invoiceId)));
    expect(audit.map((row) => row.action)).toEqual(['invoice.issue']);
    expect(audit[0]?.detail).toMatchObject({ invoiceNo: '24312000000012345678', amount: 8_800 });
  });
});
