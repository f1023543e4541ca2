import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ORDER_BILLING_TYPES,
  ORDER_STATUSES,
  ORDER_TYPES,
  RECHARGE_MAX_FEN,
  RECHARGE_MIN_FEN,
} from '@slg/shared';
import {
  billSchema,
  ledgerEntrySchema,
  orderDetailSchema,
  orderSummarySchema,
  paymentChannelsSchema,
  rechargeViewSchema,
  voucherViewSchema,
} from '@slg/shared/views/billing';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { amountField, text } from '../../http/fields.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { once } from '../../http/idempotency.js';
import { pageQuery, pageSchema, timeRangeQuery } from '../../http/pagination.js';
import { payingWalletOf } from './ledger.js';
import { OrderService } from './orders.js';
import { findOrder, listOrders, orderDetail, toVoucherView } from './order-views.js';
import { RECHARGE_CHANNELS, RechargeService } from './recharges.js';
import { billsCsv, StatementService } from './statements.js';
import { chinaTimestamp, ORDER_NO_PATTERN, RECHARGE_ID_PATTERN } from './numbers.js';

const gatewayAcknowledgement = z.object({ code: z.enum(['SUCCESS', 'FAIL']), message: z.string().optional() });
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };
const valuesOf = <T extends { value: string }>(items: readonly T[]) => items.map((item) => item.value) as [T['value'], ...T['value'][]];
const orderTypeField = z.enum(valuesOf(ORDER_TYPES), { error: '订单类型不正确' });
const orderStatusField = z.enum(valuesOf(ORDER_STATUSES), { error: '订单状态不正确' });
const ledgerTypeField = z.enum(['CONSUME', 'RECHARGE', 'REFUND', 'WITHDRAW', 'TRANSFER', 'GIFT'], { error: '交易类型不正确' });
const orderNoParams = z.object({ orderNo: z.string().regex(ORDER_NO_PATTERN, '订单号格式不正确') });
const rechargeIdParams = z.object({ rechargeId: z.string().regex(RECHARGE_ID_PATTERN, '充值单号格式不正确') });

export const billingRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const db = deps.database.db;
  const recharges = new RechargeService(deps);
  const statements = new StatementService(db);
  const orderService = new OrderService(deps.now);
  // Before validation, so a caller without the authority learns nothing about the body's rules.
  const costCentre = { preValidation: requireAuthority('INVOICE') };

  // Gateways post their own formats; the signature covers the exact bytes, so keep the body raw.
  await app.register(async (notify) => {
    notify.removeAllContentTypeParsers();
    notify.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    notify.post<{ Params: { provider: string } }>(
      '/payment/notify/:provider',
      {
        config: { public: true },
        schema: {
          tags: ['充值'],
          summary: '支付网关异步通知（验签后入账，重复通知只入账一次）',
          // The acknowledgement is in the gateway's own format; only an unknown channel gets the envelope.
          response: {
            200: {
              description: '已受理：支付宝为文本 success（不通过为 failure），微信支付与沙箱为 {"code":"SUCCESS"}',
              content: { 'text/plain': { schema: z.string() }, 'application/json': { schema: gatewayAcknowledgement } },
            },
            400: {
              description: '不通过：微信支付与沙箱为 {"code":"FAIL"}（网关稍后重发）；请求本身不合规时为统一错误格式',
              content: { 'application/json': { schema: z.union([gatewayAcknowledgement, errorEnvelope]) } },
            },
            404: errorEnvelope,
          },
        },
      },
      async (request, reply) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const outcome = await recharges.handleNotification(request.params.provider, { headers: request.headers, rawBody });
        if (!outcome.ok) request.log.warn({ provider: request.params.provider, reason: outcome.reason }, 'payment notification refused');
        const ack = recharges.gatewayAcknowledgement(request.params.provider, outcome.ok);
        if (!ack) return reply.status(404).send({ rspcode: 40400, code: 40400, rspmsg: '支付渠道不存在', result: null });
        return reply.status(ack.status).type(ack.contentType).send(ack.body);
      },
    );
  });

  app.get(
    '/payment/channels',
    {
      ...costCentre,
      schema: {
        tags: ['充值'],
        summary: '可用的充值方式与对公转账收款账户',
        response: {
          200: envelopeOf(paymentChannelsSchema),
          ...errors,
        },
      },
    },
    async () => ok(recharges.channels()),
  );

  app.post(
    '/payment/recharge',
    {
      ...costCentre,
      schema: {
        tags: ['充值'],
        summary: '发起充值（金额单位：分，¥1 – ¥100,000；支持 Idempotency-Key）',
        body: z.object({
          amount: amountField('充值金额', { min: RECHARGE_MIN_FEN, max: RECHARGE_MAX_FEN }),
          channel: z.enum(RECHARGE_CHANNELS, { error: '充值方式必须是 WXPAY、ALIPAY 或 BANK' }),
        }),
        response: { 200: envelopeOf(rechargeViewSchema), ...errors },
      },
    },
    async (request, reply) =>
      once(deps, request, reply, async (tx) =>
        ok(await recharges.create(tx, principalOf(request), { amountFen: request.body.amount, channel: request.body.channel })),
      ),
  );

  app.get(
    '/payment/recharge',
    {
      ...costCentre,
      schema: {
        tags: ['充值'],
        summary: '充值记录',
        querystring: pageQuery
          .extend({ status: z.enum(['CREATED', 'SUCCESS', 'FAILED']).optional(), channel: z.enum(RECHARGE_CHANNELS).optional() })
          .and(timeRangeQuery),
        response: { 200: envelopeOf(pageSchema(rechargeViewSchema)), ...errors },
      },
    },
    async (request) => ok(await recharges.list(principalOf(request), request.query)),
  );

  app.get(
    '/payment/recharge/:rechargeId',
    {
      ...costCentre,
      schema: { tags: ['充值'], summary: '充值状态', params: rechargeIdParams, response: { 200: envelopeOf(rechargeViewSchema), ...errors } },
    },
    async (request) => ok(await recharges.get(principalOf(request), request.params.rechargeId)),
  );

  app.post(
    '/payment/recharge/:rechargeId/bank-reference',
    {
      ...costCentre,
      schema: {
        tags: ['充值'],
        summary: '提交对公转账凭证号',
        params: rechargeIdParams,
        body: z.object({ reference: text('转账凭证号').trim().min(4, '转账凭证号至少4位').max(64, '转账凭证号不能超过64位') }),
        response: { 200: envelopeOf(rechargeViewSchema), ...errors },
      },
    },
    async (request) => ok(await recharges.submitBankReference(principalOf(request), request.params.rechargeId, request.body.reference)),
  );

  app.post(
    '/payment/recharge/:rechargeId/cancel',
    {
      ...costCentre,
      schema: {
        tags: ['充值'],
        summary: '取消待支付的扫码充值（先在支付渠道关单；已支付则入账并返回 409 该订单已支付；重复调用无副作用）',
        params: rechargeIdParams,
        response: { 200: envelopeOf(rechargeViewSchema), ...errors, 503: errorEnvelope },
      },
    },
    async (request) => ok(await recharges.cancel(principalOf(request), request.params.rechargeId)),
  );

  app.get(
    '/ledger/entries',
    {
      ...costCentre,
      schema: {
        tags: ['账单'],
        summary: '收支明细',
        querystring: pageQuery
          .extend({ incomeType: z.enum(['INCOME', 'EXPENSE'], { error: '收支类型必须是 INCOME 或 EXPENSE' }).optional(), type: ledgerTypeField.optional() })
          .and(timeRangeQuery),
        response: { 200: envelopeOf(pageSchema(ledgerEntrySchema)), ...errors },
      },
    },
    async (request) => {
      const walletId = await payingWalletOf(db, principalOf(request));
      return ok(await statements.entries(walletId, request.query));
    },
  );

  const billFilter = z.object({ orderType: orderTypeField.optional() }).and(timeRangeQuery);
  app.get(
    '/bills',
    {
      ...costCentre,
      schema: {
        tags: ['账单'],
        summary: '账单明细（消费与退款，含余额与代金券部分）',
        querystring: pageQuery.and(billFilter),
        response: { 200: envelopeOf(pageSchema(billSchema)), ...errors },
      },
    },
    async (request) => {
      const walletId = await payingWalletOf(db, principalOf(request));
      return ok(await statements.bills(walletId, request.query));
    },
  );

  app.get(
    '/bills/export',
    { ...costCentre, schema: { tags: ['账单'], summary: '导出账单明细 CSV（最多 10000 条）', querystring: billFilter } },
    async (request, reply) => {
      const walletId = await payingWalletOf(db, principalOf(request));
      const bills = await statements.allBills(walletId, request.query);
      const csv = billsCsv(bills, {
        orderType: (value) => ORDER_TYPES.find((item) => item.value === value)?.label ?? value ?? '',
        billingType: (value) => ORDER_BILLING_TYPES.find((item) => item.value === value)?.label ?? value ?? '',
      });
      const filename = `bills-${chinaTimestamp(deps.now()).slice(0, 8)}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(`账单明细-${filename}`)}`)
        .send(csv);
    },
  );

  app.get(
    '/order',
    {
      ...costCentre,
      schema: {
        tags: ['订单'],
        summary: '我的订单',
        querystring: pageQuery
          .extend({
            status: orderStatusField.optional(),
            type: orderTypeField.optional(),
            orderNo: z.string().trim().max(20, '订单号最多20位').optional(),
          })
          .and(timeRangeQuery),
        response: { 200: envelopeOf(pageSchema(orderSummarySchema)), ...errors },
      },
    },
    async (request) => ok(await listOrders(db, principalOf(request), request.query)),
  );

  app.get(
    '/order/:orderNo',
    { ...costCentre, schema: { tags: ['订单'], summary: '订单详情', params: orderNoParams, response: { 200: envelopeOf(orderDetailSchema), ...errors } } },
    async (request) => ok(await orderDetail(db, await findOrder(db, principalOf(request), request.params.orderNo))),
  );

  app.get(
    '/order/:orderNo/vouchers',
    {
      ...costCentre,
      schema: { tags: ['订单'], summary: '该订单可用的代金券（最优在前）', params: orderNoParams, response: { 200: envelopeOf(z.array(voucherViewSchema)), ...errors } },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const order = await findOrder(tx, principalOf(request), request.params.orderNo);
        if (order.status !== 'UNPAID') return ok([]);
        const now = deps.now();
        return ok((await orderService.applicableVouchers(tx, order)).map((voucher) => toVoucherView(voucher, now)));
      }),
  );

  app.post(
    '/order/:orderNo/pay',
    {
      ...costCentre,
      schema: {
        tags: ['订单'],
        summary: '用余额支付订单（voucherId 省略=自动选最优代金券，null=不用；支持 Idempotency-Key）',
        params: orderNoParams,
        body: z.object({ voucherId: z.number().int().positive().nullable().optional() }).nullish(),
        response: { 200: envelopeOf(orderDetailSchema), ...errors },
      },
    },
    async (request, reply) =>
      once(deps, request, reply, async (tx) => {
        const order = await findOrder(tx, principalOf(request), request.params.orderNo);
        const voucherId = request.body?.voucherId;
        const choice = voucherId === undefined ? { mode: 'best' as const } : voucherId === null ? { mode: 'none' as const } : { mode: 'use' as const, voucherId };
        return ok(await orderDetail(tx, await orderService.pay(tx, order.id, choice)));
      }),
  );

  app.post(
    '/order/:orderNo/cancel',
    {
      ...costCentre,
      schema: { tags: ['订单'], summary: '取消待支付订单', params: orderNoParams, response: { 200: envelopeOf(orderDetailSchema), ...errors } },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const order = await findOrder(tx, principalOf(request), request.params.orderNo);
        return ok(await orderDetail(tx, await orderService.cancel(tx, order.id)));
      }),
  );
};
