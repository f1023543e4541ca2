import { HUMAN_CHECK_PARAM } from '@slg/shared';
import type { BoundPhone, PhoneChangeTicket, PhoneRegistered, SubUserInfo as SubUserInfoDto, UserInfo as UserInfoDto } from '@slg/shared/views/account';
import type { SmsSendResult } from './auth';
import { request } from './client';

/** GET /api/v1/user/userinfo (docs/api-auth.md) and GET /api/v1/subuser/me; phones arrive masked. */
export type {
  BoundPhone,
  PhoneChangeTicket,
  PhoneRegistered,
  SubUserInfo as SubUserInfoDto,
  UserInfo as UserInfoDto,
} from '@slg/shared/views/account';

export function fetchUserInfo(): Promise<UserInfoDto> {
  return request<UserInfoDto>({ url: '/user/userinfo' });
}

export function fetchSubUserMe(): Promise<SubUserInfoDto> {
  return request<SubUserInfoDto>({ url: '/subuser/me' });
}

/** A sub-account replaces its own password; its other sign-ins end. */
export function changeSubAccountPassword(body: { oldPassword: string; password: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/subuser/password/old', data: body });
}

export function updatePassword(body: { password: string; oldPassword?: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/user/updatePassword', data: body });
}

export function updateNickname(nickName: string): Promise<null> {
  return request<null>({ method: 'POST', url: '/user/updateNickname', data: { nickName } });
}

/** 修改手机号 step 1: a code to the account's own phone. */
export function sendOldPhoneCode(humanCheck?: string): Promise<SmsSendResult> {
  return request<SmsSendResult>({ url: '/smscode', params: { type: 'change_phone_old', [HUMAN_CHECK_PARAM]: humanCheck } });
}

/** Step 1 done: a ticket for this sign-in, valid `expiresIn` seconds and once. */
export function verifyOldPhone(code: string): Promise<PhoneChangeTicket> {
  return request<PhoneChangeTicket>({ method: 'POST', url: '/user/updatePhone/verify', data: { code } });
}

/** Step 2: a code to the new phone (which must be free), with the ticket of step 1. */
export function sendNewPhoneCode(ticket: string, telephone: string, humanCheck?: string): Promise<SmsSendResult> {
  return request<SmsSendResult>({
    method: 'POST',
    url: '/smscode/new-phone',
    data: { ticket, telephone, [HUMAN_CHECK_PARAM]: humanCheck },
  });
}

/** Moves the account to the new phone; every other session of the account is signed out. */
export function updatePhone(body: { ticket: string; telephone: string; code: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/user/updatePhone', data: body });
}

export function forgetPassword(body: { telephone: string; code: string; password: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/user/forgetPassword', data: body });
}

/** A sub-account that forgot its password resets it with the phone it bound (code type `reset`). */
export function resetSubAccountPassword(body: { username: string; telephone: string; code: string; password: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/subuser/password/phone', data: body });
}

/** A sub-account binds (or changes) its own phone, proved by a `bind` code. */
export function bindSubAccountPhone(body: { telephone: string; code: string }): Promise<BoundPhone> {
  return request<BoundPhone>({ method: 'POST', url: '/subuser/bind', data: body });
}

export function checkPhone(telephone: string): Promise<PhoneRegistered> {
  return request<PhoneRegistered>({ url: '/user/check-phone', params: { telephone } });
}
