/**
 * 提醒设置 (`GET, POST /reminder`, `DELETE /reminder?remindType`): each account's own reminders. Money is
 * integer fen; the console converts the yuan typed into fen before sending.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { RemindType } from '@slg/shared';
import type { ReminderSettings, ReminderView } from '@slg/shared/views/reminders';
import { request } from './client';
import { queryKeys } from './queryKeys';

export type { ReminderSettings, ReminderView } from '@slg/shared/views/reminders';

export interface ReminderInput {
  remindType: RemindType;
  thresholdFen?: number;
  daysBefore?: number;
  sms: boolean;
}

export const reminderKeys = {
  all: queryKeys.reminders,
  settings: () => [...queryKeys.reminders, 'settings'] as const,
} as const;

/** Silent: the card shows its own load error. */
export function fetchReminders(): Promise<ReminderSettings> {
  return request<ReminderSettings>({ url: '/reminder', silent: true });
}

/** Sets one type; a refusal about a field is claimed by the form. */
export function saveReminder(input: ReminderInput): Promise<ReminderView> {
  return request<ReminderView>({ method: 'POST', url: '/reminder', data: input });
}

/** Turns one type off (RELEASE / STOCK: the SMS only). */
export function deleteReminder(remindType: RemindType): Promise<ReminderView> {
  return request<ReminderView>({ method: 'DELETE', url: '/reminder', params: { remindType } });
}

export function useRemindersQuery() {
  return useQuery({ queryKey: reminderKeys.settings(), queryFn: fetchReminders });
}

export function invalidateReminders(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.reminders });
}
