import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { smsOutbox } from '../../db/schema/index.js';
import { telephoneField } from '../../http/fields.js';
import { envelopeOf, ok } from '../../http/envelope.js';

/** Only mounted with SMS_PROVIDER=console: what the console provider "sent", newest first. */
export const devRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/sms',
    {
      config: { public: true },
      schema: {
        tags: ['开发'],
        summary: '控制台短信发件箱：验证码与通知短信（仅 SMS_PROVIDER=console 时存在）',
        querystring: z.object({ telephone: telephoneField }),
        response: {
          200: envelopeOf(
            z.array(z.object({ telephone: z.string(), type: z.string(), code: z.string(), content: z.string().nullable(), createdAt: z.string() })),
          ),
        },
      },
    },
    async (request) => {
      const rows = await deps.database.db
        .select()
        .from(smsOutbox)
        .where(eq(smsOutbox.telephone, request.query.telephone))
        .orderBy(desc(smsOutbox.createdAt), desc(smsOutbox.id))
        .limit(20);
      return ok(
        rows.map((row) => ({ telephone: row.telephone, type: row.type, code: row.code, content: row.content, createdAt: row.createdAt.toISOString() })),
      );
    },
  );
};
