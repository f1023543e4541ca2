import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationSchema, notificationsReadSchema, unreadCountSchema } from '@slg/shared/views/notifications';
import type { AppDeps } from '../../deps.js';
import { principalOf } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { NotificationService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };

const unreadFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'unread 必须是 true 或 false' })
  .transform((value) => value === 'true' || value === '1');

const MAX_IDS = 100;
const readBody = z
  .object({
    ids: z
      .array(z.number({ error: '通知ID必须是整数' }).int('通知ID必须是整数').positive('通知ID必须是正整数'), { error: 'ids 必须是通知ID数组' })
      .max(MAX_IDS, `一次最多标记${MAX_IDS}条通知`)
      .optional()
      .describe('要标为已读的通知；不传则全部标为已读'),
  })
  .default({});

/** The console header's notifications (issue 9 extends them). Main accounts see all of theirs; a sub-account those about what it created. */
export const notificationRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new NotificationService(deps);
  const tags = ['消息通知'];

  app.get(
    '/notifications',
    {
      config: { access: 'account' },
      schema: {
        tags,
        summary: '消息通知列表（最新在前）',
        querystring: pageQuery.extend({ unread: unreadFlag.optional() }),
        response: { 200: envelopeOf(pageSchema(notificationSchema)), ...errors },
      },
    },
    async (request) => ok(await service.list(principalOf(request), request.query)),
  );

  app.get(
    '/notifications/unread-count',
    {
      config: { access: 'account' },
      schema: { tags, summary: '未读消息数', response: { 200: envelopeOf(unreadCountSchema), ...errors } },
    },
    async (request) => ok({ unread: await service.unreadCount(principalOf(request)) }),
  );

  app.post(
    '/notifications/read',
    {
      config: { access: 'account' },
      schema: {
        tags,
        summary: '标为已读（不传 ids 则全部已读）',
        body: readBody,
        response: { 200: envelopeOf(notificationsReadSchema), ...errors },
      },
    },
    async (request) => ok({ updated: await service.markRead(principalOf(request), request.body.ids) }),
  );
};
