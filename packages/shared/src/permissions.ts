/** Accounts and permissions (spec §3, §6; DESIGN §5). */
export const AccountType = { MAIN: 1, SUB: 2 } as const;
export type AccountType = (typeof AccountType)[keyof typeof AccountType];

export const AUTHORITY_TYPES = ['CONTAINER', 'ELASTIC', 'MIRROR', 'FILE_STORAGE', 'INVOICE', 'MODEL_DEPLOY'] as const;
export type AuthorityType = (typeof AUTHORITY_TYPES)[number];

export const AUTHORITY_TYPE_LABELS: Record<AuthorityType, string> = {
  CONTAINER: '容器实例',
  ELASTIC: '弹性部署',
  MIRROR: '镜像',
  FILE_STORAGE: '文件存储',
  INVOICE: '费用中心',
  MODEL_DEPLOY: '模型部署',
};

/**
 * The authority types a main account can grant today: those whose product exists. The spec's other
 * type (模型部署) stays in the dictionary above and comes back here with the issue that builds its
 * product; until then the console does not show it and the server refuses it.
 */
export const OFFERED_AUTHORITY_TYPES = ['CONTAINER', 'ELASTIC', 'MIRROR', 'FILE_STORAGE', 'INVOICE'] as const satisfies readonly AuthorityType[];
export type OfferedAuthorityType = (typeof OFFERED_AUTHORITY_TYPES)[number];

export function isOfferedAuthorityType(type: AuthorityType): type is OfferedAuthorityType {
  return (OFFERED_AUTHORITY_TYPES as readonly AuthorityType[]).includes(type);
}

/** Why a grant of a type not offered yet is refused. */
export function authorityNotOfferedMessage(type: AuthorityType): string {
  return `${AUTHORITY_TYPE_LABELS[type]}尚未开放，不能设置该权限`;
}

export const PERMISSION_LEVELS = ['SELF', 'ALL', 'NONE'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];
/** Numeric variant of the permission level (spec §3). */
export const PERMISSION_LEVEL_CODES: Record<PermissionLevel, 1 | 2 | 3> = { SELF: 1, ALL: 2, NONE: 3 };
export const PERMISSION_LEVEL_LABELS: Record<PermissionLevel, string> = {
  SELF: '仅本人数据',
  ALL: '全部数据',
  NONE: '无权限',
};

/** FILE_STORAGE and INVOICE offer ALL or NONE only. */
export const ALLOWED_LEVELS: Record<AuthorityType, readonly PermissionLevel[]> = {
  CONTAINER: PERMISSION_LEVELS,
  ELASTIC: PERMISSION_LEVELS,
  MIRROR: PERMISSION_LEVELS,
  FILE_STORAGE: ['ALL', 'NONE'],
  INVOICE: ['ALL', 'NONE'],
  MODEL_DEPLOY: PERMISSION_LEVELS,
};

export type PermissionMap = Record<AuthorityType, PermissionLevel>;

export const FULL_PERMISSIONS: PermissionMap = {
  CONTAINER: 'ALL',
  ELASTIC: 'ALL',
  MIRROR: 'ALL',
  FILE_STORAGE: 'ALL',
  INVOICE: 'ALL',
  MODEL_DEPLOY: 'ALL',
};

export const NO_PERMISSIONS: PermissionMap = {
  CONTAINER: 'NONE',
  ELASTIC: 'NONE',
  MIRROR: 'NONE',
  FILE_STORAGE: 'NONE',
  INVOICE: 'NONE',
  MODEL_DEPLOY: 'NONE',
};

/** The authority types a sub-account may use at all (level other than NONE): its "permission list". */
export function grantedAuthorities(permissions: PermissionMap): AuthorityType[] {
  return AUTHORITY_TYPES.filter((type) => permissions[type] !== 'NONE');
}

export const ROLES = ['operator'] as const;
export type Role = (typeof ROLES)[number];

/** Sub-account sign-in names: 4–32 letters, digits, `_`, `-` or `.` (no spaces, nothing a phone could be mistaken for). */
export const SUB_ACCOUNT_USERNAME_PATTERN = /^(?!\d{11}$)[A-Za-z0-9_.-]{4,32}$/;
export const SUB_ACCOUNT_USERNAME_MESSAGE = '用户名为4-32位字母、数字、下划线、短横线或点，不能是手机号';
/** Sub-accounts one main account may have (not counting deleted ones). */
export const SUB_ACCOUNT_LIMIT = 50;
