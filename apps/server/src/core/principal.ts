import {
  AccountType,
  FULL_PERMISSIONS,
  NO_PERMISSIONS,
  type AuthorityType,
  type PermissionLevel,
  type PermissionMap,
  type Role,
} from '@slg/shared';

/** Who is calling: resolved once per request from the bearer token. */
export interface Principal {
  userId: number;
  /** The main account that owns everything this caller creates: itself, or a sub-account's parent. */
  ownerId: number;
  accountType: AccountType;
  permissions: PermissionMap;
  roles: readonly Role[];
  /** The refresh-token family of this sign-in; signing out revokes it. Empty for an API token. */
  sessionId: string;
  /** Set when the caller came with an API token rather than a sign-in (session-only routes refuse it). */
  apiTokenId?: number;
}

export interface PrincipalSource {
  id: number;
  accountType: number;
  parentId: number | null;
  permissions: PermissionMap | null;
  roles: readonly Role[];
}

export function principalOf(user: PrincipalSource, sessionId: string): Principal {
  if (user.accountType === AccountType.SUB) {
    if (user.parentId === null) throw new Error(`sub-account ${user.id} has no parent`);
    return {
      userId: user.id,
      ownerId: user.parentId,
      accountType: AccountType.SUB,
      permissions: { ...NO_PERMISSIONS, ...(user.permissions ?? {}) },
      roles: [],
      sessionId,
    };
  }
  return {
    userId: user.id,
    ownerId: user.id,
    accountType: AccountType.MAIN,
    permissions: FULL_PERMISSIONS,
    roles: user.roles,
    sessionId,
  };
}

export function levelOf(principal: Principal, authority: AuthorityType): PermissionLevel {
  return principal.accountType === AccountType.MAIN ? 'ALL' : principal.permissions[authority];
}

export function isMainAccount(principal: Principal): boolean {
  return principal.accountType === AccountType.MAIN;
}
