import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { accountOf, principalOf, spendableBalanceOf } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { amountField } from '../../http/fields.js';
import { isMainAccount } from '../../core/principal.js';
import {
  REMIND_TYPES,
  REMINDER_DAYS_DEFAULT,
  REMINDER_DAYS_MAX,
  REMINDER_DAYS_MIN,
  REMINDER_THRESHOLD_MAX_FEN,
  REMINDER_THRESHOLD_MIN_FEN,
} from '@slg/shared';
import { REMIND_TYPES_TEXT, reminderSchema, reminderSettingsSchema } from '@slg/shared/views/reminders';
import { ReminderService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };

const TYPES_TEXT = REMIND_TYPES_TEXT;
const remindTypeField = z.enum(REMIND_TYPES, {
  error: (issue) => (issue.input === undefined || issue.input === null ? '请选择提醒类型' : `提醒类型必须是 ${TYPES_TEXT} 之一`),
});

const daysMessage = `提前天数必须是${REMINDER_DAYS_MIN}到${REMINDER_DAYS_MAX}之间的整数`;
const daysField = z
  .number({ error: daysMessage })
  .int(daysMessage)
  .min(REMINDER_DAYS_MIN, daysMessage)
  .max(REMINDER_DAYS_MAX, daysMessage);

const saveBody = z.object({
  remindType: remindTypeField,
  thresholdFen: amountField('提醒金额', { min: REMINDER_THRESHOLD_MIN_FEN, max: REMINDER_THRESHOLD_MAX_FEN })
    .nullable()
    .optional()
    .describe('BALANCE_LOW 必填：提醒金额（分），1 至 10000000'),
  daysBefore: daysField.nullable().optional().describe(`PACKAGE_EXPIRING：到期前几天提醒，${REMINDER_DAYS_MIN}–${REMINDER_DAYS_MAX}，默认${REMINDER_DAYS_DEFAULT}`),
  sms: z.boolean({ error: 'sms 必须是布尔值（是否同时发送短信）' }).optional().describe('是否同时发送短信，默认 true'),
});

/**
 * 提醒设置 (spec §7 `GET, POST /reminder`, `DELETE /reminder?remindType`): every signed-in account, main or
 * sub, manages its own reminders.
 */
export const reminderRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new ReminderService(deps);
  const tags = ['提醒设置'];

  app.get(
    '/reminder',
    {
      config: { access: 'account', readsBalance: true },
      schema: { tags, summary: '我的提醒设置：每种提醒的当前设置（未设置的为默认值），以及余额提醒所看的余额', response: { 200: envelopeOf(reminderSettingsSchema), ...errors } },
    },
    async (request) => {
      const principal = principalOf(request);
      const sharedMainBalance = !isMainAccount(principal) && accountOf(request).sharedMainBalance;
      return ok(await service.list(principal, { balanceFen: spendableBalanceOf(request), sharedMainBalance }));
    },
  );

  app.post(
    '/reminder',
    {
      config: { access: 'account' },
      schema: {
        tags,
        summary: '开启或修改一种提醒（整项设置：未给出的取默认值）。BALANCE_LOW 须给 thresholdFen；PACKAGE_EXPIRING 可给 daysBefore；RELEASE / STOCK 只有 sms',
        body: saveBody,
        response: { 200: envelopeOf(reminderSchema), ...errors },
      },
    },
    async (request) => ok(await service.save(principalOf(request), request.body)),
  );

  app.delete(
    '/reminder',
    {
      config: { access: 'account' },
      schema: {
        tags,
        summary: '关闭一种提醒：BALANCE_LOW / PACKAGE_EXPIRING 不再提醒；RELEASE / STOCK 只停发短信，站内消息照常',
        querystring: z.object({ remindType: remindTypeField }),
        response: { 200: envelopeOf(reminderSchema), ...errors },
      },
    },
    async (request) => ok(await service.remove(principalOf(request), request.query.remindType)),
  );
};
