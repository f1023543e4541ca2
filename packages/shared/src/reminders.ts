/**
 * 提醒设置 (`GET, POST /reminder`, `DELETE /reminder?remindType`): the types, their limits and the shapes
 * both the server and the console use. Money is integer fen.
 * - BALANCE_LOW: the balance paying for the user fell below `thresholdFen`; once per drop.
 * - PACKAGE_EXPIRING: a day / week / month package ends within `daysBefore` days; once per package end.
 * - RELEASE, STOCK: the release reminders and stock alerts the platform always sends; the setting only
 *   decides whether an SMS goes with the console notice.
 */
export const REMIND_TYPES = ['BALANCE_LOW', 'PACKAGE_EXPIRING', 'RELEASE', 'STOCK'] as const;
export type RemindType = (typeof REMIND_TYPES)[number];

/** The types whose console notice always appears: only their SMS can be switched off (no row: SMS on). */
export const ALWAYS_ON_REMIND_TYPES: readonly RemindType[] = ['RELEASE', 'STOCK'];

export const REMIND_TYPE_LABELS: Record<RemindType, string> = {
  BALANCE_LOW: '余额不足提醒',
  PACKAGE_EXPIRING: '包年包月到期提醒',
  RELEASE: '实例释放提醒',
  STOCK: '到货提醒',
};

/** Limits of a balance reminder's threshold: ¥0.01 to ¥100,000. */
export const REMINDER_THRESHOLD_MIN_FEN = 1;
export const REMINDER_THRESHOLD_MAX_FEN = 10_000_000;
/** Days before a package's end: 1 to 30, 3 unless the user chose otherwise. */
export const REMINDER_DAYS_MIN = 1;
export const REMINDER_DAYS_MAX = 30;
export const REMINDER_DAYS_DEFAULT = 3;

// What GET /reminder answers (ReminderView, ReminderSettings) is in ./views/reminders: the server's schemas.
