/** API tokens (API令牌) for scripts: rules shared by the server and the console. */

/** Tokens one user may keep. */
export const MAX_API_TOKENS = 10;

/** Every token starts with this, so the server can tell it from a sign-in's access token at a glance. */
export const API_TOKEN_PREFIX = 'slg_';

export const API_TOKEN_NAME_MAX = 32;
/** 1–32 characters (after trimming): Chinese, letters, digits, spaces, `-`, `_` and `.`. */
export const API_TOKEN_NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9._-](?:[\p{Script=Han}A-Za-z0-9._ -]{0,30}[\p{Script=Han}A-Za-z0-9._-])?$/u;
export const API_TOKEN_NAME_MESSAGE = `名称为1-${API_TOKEN_NAME_MAX}个字符，只能包含中文、字母、数字、空格、“-”、“_”和“.”`;

/** 1 enabled, 0 disabled (spec §7). */
export const ApiTokenStatus = { DISABLED: 0, ENABLED: 1 } as const;
export type ApiTokenStatus = (typeof ApiTokenStatus)[keyof typeof ApiTokenStatus];

/** Refusal of a route only a signed-in person may use (token management, password, phone…). */
export const API_TOKEN_NOT_ALLOWED_MESSAGE = 'API令牌不能用于此操作';
