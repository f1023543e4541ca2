import type { AccountType, AuthorityType, PermissionLevel } from '@slg/shared';
import { request } from './client';

/** GET /api/v1/user/userinfo (docs/api-auth.md). `telephone` arrives masked. */
export interface UserInfoDto {
  userId: number | string;
  userName: string;
  nickName: string;
  telephone: string;
  accountType: AccountType;
  roles: string[];
  hasPassword: boolean;
  createdAt: string;
}

/** GET /api/v1/subuser/me. */
export interface SubUserInfoDto {
  userId: number | string;
  username: string;
  nickname: string;
  accountType: 2;
  permissions: AuthorityType[];
  permissionLevels?: Partial<Record<AuthorityType, PermissionLevel>>;
  sharedMainBalance: boolean;
  mainAccountId: number | string;
}

export function fetchUserInfo(): Promise<UserInfoDto> {
  return request<UserInfoDto>({ url: '/user/userinfo' });
}

export function fetchSubUserMe(): Promise<SubUserInfoDto> {
  return request<SubUserInfoDto>({ url: '/subuser/me' });
}

export function updatePassword(body: { password: string; oldPassword?: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/user/updatePassword', data: body });
}

export function forgetPassword(body: { telephone: string; code: string; password: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/user/forgetPassword', data: body });
}

export function checkPhone(telephone: string): Promise<{ registered: boolean }> {
  return request<{ registered: boolean }>({ url: '/user/check-phone', params: { telephone } });
}
