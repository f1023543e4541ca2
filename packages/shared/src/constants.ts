/** Business constants of spec §9, shared by the server and the console. */
export const APP_TITLE_DEFAULT = '算力港';
export const COUNTRY_CODE = 86;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export const TOAST_DURATION_MS = 3000;
export const TOAST_OFFSET_PX = 16;
export const UNAUTHORIZED_TOAST_THROTTLE_MS = 3000;
export const AUTO_RELOAD_GUARD_MS = 10_000;

/** SMS verification codes (issue 2). */
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 5 * 60;
export const SMS_RESEND_INTERVAL_SECONDS = 60;
export const SMS_DAILY_LIMIT_PER_PHONE = 10;
/** Comparisons allowed against one code, on every path that checks codes; then it is dead. */
export const SMS_MAX_CHECKS = 5;

/** Human checks asked for before SMS sends once a client or a phone passed its threshold (issue 6). */
export const HUMAN_CHECK_PROVIDERS = ['altcha', 'aliyun', 'tencent'] as const;
export type HumanCheckProviderName = (typeof HUMAN_CHECK_PROVIDERS)[number];
/** Query parameter of the SMS send endpoints that carries a solved human check. */
export const HUMAN_CHECK_PARAM = 'captcha';

/** Password checks (sign-in, the old password of a change): at most 5 wrong ones per phone in any 15 minutes. */
export const PASSWORD_MAX_FAILURES = 5;
export const PASSWORD_FAILURE_WINDOW_SECONDS = 15 * 60;

/** Request bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Time packages (spec §9): package keys and the allowed counts per period. */
export const TIME_PACKAGE_KEYS = { day: 2, week: 3, month: 4 } as const;
export const TIME_PACKAGE_COUNTS = {
  day: [1, 2, 3, 4, 5, 6],
  week: [1, 2, 3],
  month: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50, 100],
} as const;

/** Money limits (issue 3), all in fen. */
export const RECHARGE_MIN_FEN = 100;
export const RECHARGE_MAX_FEN = 10_000_000;
/** failureReason of a recharge the payer cancelled (status FAILED): the console shows it as 已取消. */
export const RECHARGE_CANCELED_REASON = '已取消';
/** Any single amount the API accepts; far above every real price, far below 2^53. */
export const AMOUNT_MAX_FEN = 1_000_000_000_00;
export const REDEEM_MAX_FAILURES = 5;
export const REDEEM_FAILURE_WINDOW_SECONDS = 10 * 60;
