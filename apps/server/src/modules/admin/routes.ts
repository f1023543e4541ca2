import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ORDER_TYPES, RECHARGE_MAX_FEN, valuesOf, type OrderTypeValue } from '@slg/shared';
import { rechargeViewSchema } from '@slg/shared/views/billing';
import { invoiceViewSchema } from '@slg/shared/views/invoices';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireRole } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { AppError } from '../../core/errors.js';
import { amountField, telephoneField, text } from '../../http/fields.js';
import { once } from '../../http/idempotency.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { RECHARGE_CHANNELS, RechargeService } from '../billing/recharges.js';
import { InvoiceService } from '../invoices/service.js';
import { adminInvoiceViewSchema, invoiceIdParams, invoiceStatusQuery } from '../invoices/view.js';
import { AdminService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 413: errorEnvelope, 415: errorEnvelope };

/** Vouchers and codes are worth at most one maximum recharge each. */
const VOUCHER_MAX_FEN = RECHARGE_MAX_FEN;
const MAX_DAYS = 3650;

const days = (label: string) =>
  z
    .number({ error: `${label}必须是整数天数` })
    .int(`${label}必须是整数天数`)
    .min(1, `${label}至少为1天`)
    .max(MAX_DAYS, `${label}不能超过${MAX_DAYS}天`);

const orderTypes = valuesOf(ORDER_TYPES) as [OrderTypeValue, ...OrderTypeValue[]];
const scopeField = z
  .array(z.enum(orderTypes, { error: '适用订单类型不正确' }), { error: '适用订单类型必须是数组' })
  .max(orderTypes.length, '适用订单类型过多')
  .transform((scope) => [...new Set(scope)])
  .optional()
  .describe('适用的订单类型，空数组或不传表示所有预付费订单');
const nameField = text('名称').trim().min(1, '请输入名称').max(64, '名称不能超过64个字符');
const minOrderField = amountField('最低订单金额', { min: 0 }).optional();

const issueVouchersBody = z.object({
  telephones: z
    .array(telephoneField, { error: '请提供手机号列表' })
    .min(1, '请至少填写一个手机号')
    .max(1000, '一次最多向1000个手机号发放'),
  name: nameField,
  amount: amountField('代金券金额', { max: VOUCHER_MAX_FEN }),
  minOrderAmount: minOrderField,
  scope: scopeField,
  validDays: days('有效天数'),
});

const redeemCodesBody = z.object({
  name: nameField,
  count: z
    .number({ error: '生成数量必须是整数' })
    .int('生成数量必须是整数')
    .min(1, '生成数量至少为1')
    .max(1000, '生成数量一次最多1000个'),
  kind: z.enum(['VOUCHER', 'BALANCE'], { error: '兑换码类型必须是 VOUCHER（代金券）或 BALANCE（余额）' }),
  amount: amountField('兑换金额', { max: VOUCHER_MAX_FEN }),
  minOrderAmount: minOrderField,
  scope: scopeField,
  voucherValidDays: days('代金券有效天数').optional(),
  expiresInDays: days('兑换码有效天数'),
});

/** The voucher terms both bodies carry, in the service's names (amounts in fen, defaults applied). */
const voucherTerms = (body: { amount: number; minOrderAmount?: number | undefined; scope?: string[] | undefined }) => ({
  amountFen: body.amount,
  minOrderFen: body.minOrderAmount ?? 0,
  scope: body.scope ?? [],
});

const invoiceNoField = text('发票号码')
  .trim()
  .regex(/^[0-9A-Za-z-]{1,64}$/, '发票号码应为1-64位字母、数字或短横线');

const auditLogSchema = z.object({
  id: z.number().int(),
  actorId: z.number().int(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const adminRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const admin = new AdminService(deps);
  const invoices = new InvoiceService(deps);
  const rechargeService = new RechargeService(deps);
  const operator = requireRole('operator');
  const tags = ['运营'];

  app.get(
    '/admin/recharge',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '全部充值记录（含账户手机号）',
        querystring: pageQuery.extend({
          status: z.enum(['CREATED', 'SUCCESS', 'FAILED'], { error: '充值状态必须是 CREATED、SUCCESS 或 FAILED' }).optional(),
          channel: z.enum(RECHARGE_CHANNELS, { error: '充值渠道必须是 WXPAY、ALIPAY 或 BANK' }).optional(),
        }),
        response: { 200: envelopeOf(pageSchema(rechargeViewSchema.extend({ ownerTelephone: z.string().nullable() }))), ...errors },
      },
    },
    async (request) => ok(await admin.recharges(request.query)),
  );

  app.post(
    '/admin/recharge/:rechargeId/confirm',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '确认对公转账到账（只入账一次；支持 Idempotency-Key）',
        params: z.object({ rechargeId: text('充值单号').trim().min(1, '请提供充值单号').max(32, '充值单号不正确') }),
        body: z
          .object({ reference: text('转账凭证号').trim().min(4, '转账凭证号至少4个字符').max(64, '转账凭证号不能超过64个字符').optional() })
          .optional(),
        response: { 200: envelopeOf(rechargeViewSchema), ...errors },
      },
    },
    async (request, reply) =>
      once(deps, request, reply, async (tx) =>
        ok(await rechargeService.confirmBankTransfer(tx, principalOf(request).userId, request.params.rechargeId, request.body?.reference)),
      ),
  );

  app.post(
    '/admin/vouchers',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '按手机号批量发放代金券（有未注册的手机号则全部不发）',
        body: issueVouchersBody,
        response: { 200: envelopeOf(z.object({ batchId: z.number().int(), issued: z.number().int() })), ...errors },
      },
    },
    async (request, reply) =>
      once(deps, request, reply, async (tx) => {
        const { telephones, name, validDays } = request.body;
        return ok(await admin.issueVouchers(tx, principalOf(request).userId, { telephones, name, ...voucherTerms(request.body), validDays }));
      }),
  );

  app.post(
    '/admin/redeem-codes',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '批量生成兑换码（代金券或余额）',
        body: redeemCodesBody,
        response: { 200: envelopeOf(z.object({ batchId: z.number().int(), codes: z.array(z.string()) })), ...errors },
      },
    },
    async (request, reply) =>
      once(deps, request, reply, async (tx) => {
        const { name, count, kind, voucherValidDays, expiresInDays } = request.body;
        return ok(
          await admin.createRedeemCodes(tx, principalOf(request).userId, {
            name,
            count,
            kind,
            ...voucherTerms(request.body),
            voucherValidDays: voucherValidDays ?? 30,
            expiresInDays,
          }),
        );
      }),
  );

  app.get(
    '/admin/invoices',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '全部开票申请（含账户手机号与开票信息快照）',
        querystring: invoiceStatusQuery,
        response: { 200: envelopeOf(pageSchema(adminInvoiceViewSchema)), ...errors },
      },
    },
    async (request) => ok(await invoices.listAll(request.query)),
  );

  app.post(
    '/admin/invoices/:id/issue',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '开具发票：multipart 上传 invoiceNo 与 file（PDF，≤10MB）',
        consumes: ['multipart/form-data'],
        params: invoiceIdParams,
        response: { 200: envelopeOf(invoiceViewSchema), ...errors },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', '请以 multipart/form-data 上传发票号码（invoiceNo）和 PDF 文件（file）');
      let invoiceNo: unknown;
      let pdf: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const content = await part.toBuffer();
            if (part.fieldname === 'file') pdf = content;
          } else if (part.fieldname === 'invoiceNo') {
            invoiceNo = part.value;
          }
        }
      } catch (error) {
        if (error instanceof app.multipartErrors.RequestFileTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE', '发票文件不能超过10MB');
        if (error instanceof app.multipartErrors.FilesLimitError) throw new AppError('VALIDATION', '一次只能上传一个发票文件');
        throw error;
      }
      const parsedNo = invoiceNoField.safeParse(invoiceNo);
      if (!parsedNo.success) throw new AppError('VALIDATION', parsedNo.error.issues[0]?.message ?? '请输入发票号码');
      if (!pdf || pdf.length === 0) throw new AppError('VALIDATION', '请上传发票 PDF 文件');
      return ok(await invoices.issue(principalOf(request).userId, request.params.id, parsedNo.data, pdf));
    },
  );

  app.post(
    '/admin/invoices/:id/reject',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '驳回开票申请（金额退回可开票额度）',
        params: invoiceIdParams,
        body: z.object({ reason: text('驳回原因').trim().min(1, '请输入驳回原因').max(200, '驳回原因不能超过200个字符') }),
        response: { 200: envelopeOf(invoiceViewSchema), ...errors },
      },
    },
    async (request) => ok(await invoices.reject(principalOf(request).userId, request.params.id, request.body.reason)),
  );

  app.get(
    '/admin/audit-logs',
    {
      preValidation: operator,
      schema: { tags, summary: '运营操作审计日志', querystring: pageQuery, response: { 200: envelopeOf(pageSchema(auditLogSchema)), ...errors } },
    },
    async (request) => ok(await admin.auditLogs(request.query)),
  );
};
