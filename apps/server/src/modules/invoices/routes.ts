import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invoiceableSchema, invoiceProfileSchema, invoiceViewSchema } from '@slg/shared/views/invoices';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { once } from '../../http/idempotency.js';
import { pageSchema } from '../../http/pagination.js';
import { InvoiceService } from './service.js';
import { invoiceIdParams, invoiceProfileInput, invoiceRequestInput, invoiceStatusQuery } from './view.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope };

export const invoiceRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new InvoiceService(deps);
  const cost = requireAuthority('INVOICE');
  const tags = ['发票'];

  app.get(
    '/invoice/info',
    { preValidation: cost, schema: { tags, summary: '发票信息（抬头）', response: { 200: envelopeOf(invoiceProfileSchema.nullable()), ...errors } } },
    async (request) => ok(await service.profile(principalOf(request))),
  );

  app.put(
    '/invoice/info',
    {
      preValidation: cost,
      schema: {
        tags,
        summary: '保存发票信息（企业抬头必须填写税号）',
        body: invoiceProfileInput,
        response: { 200: envelopeOf(invoiceProfileSchema), ...errors },
      },
    },
    async (request) => ok(await service.saveProfile(principalOf(request), request.body)),
  );

  app.get(
    '/invoice/invoiceable',
    {
      preValidation: cost,
      schema: {
        tags,
        summary: '可开票金额：按充值与按账单月份（代金券、赠送金额不计入）',
        response: { 200: envelopeOf(invoiceableSchema), ...errors },
      },
    },
    async (request) => ok(await service.invoiceable(principalOf(request))),
  );

  app.post(
    '/invoice',
    {
      preValidation: cost,
      schema: {
        tags,
        summary: '申请开票（最低¥1.00；开票总额不超过现金充值总额；支持 Idempotency-Key）',
        body: invoiceRequestInput,
        response: { 200: envelopeOf(invoiceViewSchema), ...errors },
      },
    },
    async (request, reply) =>
      once(deps, request, reply, async (tx) => ok(await service.request(tx, principalOf(request), request.body))),
  );

  app.get(
    '/invoice',
    {
      preValidation: cost,
      schema: { tags, summary: '开票记录', querystring: invoiceStatusQuery, response: { 200: envelopeOf(pageSchema(invoiceViewSchema)), ...errors } },
    },
    async (request) => ok(await service.list(principalOf(request), request.query)),
  );

  app.get(
    '/invoice/:id',
    { preValidation: cost, schema: { tags, summary: '发票详情', params: invoiceIdParams, response: { 200: envelopeOf(invoiceViewSchema), ...errors } } },
    async (request) => ok(await service.get(principalOf(request), request.params.id)),
  );

  app.post(
    '/invoice/:id/cancel',
    {
      preValidation: cost,
      schema: { tags, summary: '取消开票申请（仅开票中）', params: invoiceIdParams, response: { 200: envelopeOf(invoiceViewSchema), ...errors } },
    },
    async (request) => ok(await service.cancel(principalOf(request), request.params.id)),
  );

  app.get(
    '/invoice/:id/pdf',
    {
      preValidation: cost,
      schema: {
        tags,
        summary: '下载发票 PDF（已开票）',
        params: invoiceIdParams,
      },
    },
    async (request, reply) => {
      const { invoiceNo, content } = await service.pdf(principalOf(request), request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${invoiceNo}.pdf"`)
        .send(content);
    },
  );
};
