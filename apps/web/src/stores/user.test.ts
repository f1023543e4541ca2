import { AUTHORITY_TYPES } from '@slg/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SubUserInfoDto, UserInfoDto } from '../api/user';
import { displayName, permissionList, USER_STORE_KEY, useUserStore } from './user';

const mainInfo: UserInfoDto = {
  userId: 1,
  userName: 'u13800000000',
  nickName: '小明',
  telephone: '138****0000',
  accountType: 1,
  roles: [],
  hasPassword: true,
  createdAt: '2025-01-02T03:04:05.000Z',
};

const subInfo: SubUserInfoDto = {
  userId: 2,
  username: 'dev01',
  nickname: '',
  accountType: 2,
  permissions: ['CONTAINER'],
  permissionLevels: { CONTAINER: 'SELF', ELASTIC: 'NONE', MIRROR: 'NONE', FILE_STORAGE: 'NONE', INVOICE: 'NONE', MODEL_DEPLOY: 'NONE' },
  sharedMainBalance: false,
  mainAccountId: 1,
  telephone: '',
  mainAccountBalance: null,
  subAccountBalance: 0,
};

describe('user store', () => {
  beforeEach(() => {
    localStorage.clear();
    useUserStore.getState().clear();
  });

  it('persists only token, refreshToken and accountType under slg-user', () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    useUserStore.getState().setUserInfo({ kind: 'main', info: mainInfo });
    const stored = JSON.parse(localStorage.getItem(USER_STORE_KEY) ?? '{}') as { state: Record<string, unknown> };
    expect(stored.state).toEqual({ token: 'j', refreshToken: 'r', accountType: 1 });
    expect(useUserStore.getState().userInfo?.kind).toBe('main');
  });

  it('drops the loaded info when a new session starts and clears everything', () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    useUserStore.getState().setUserInfo({ kind: 'main', info: mainInfo });
    useUserStore.getState().setSession({ jwtToken: 'j2', refreshToken: 'r2' }, 1);
    expect(useUserStore.getState().userInfo).toBeNull();
    useUserStore.getState().setTokens({ jwtToken: 'j3', refreshToken: 'r3' });
    expect(useUserStore.getState()).toMatchObject({ token: 'j3', refreshToken: 'r3', accountType: 1 });
    useUserStore.getState().clear();
    expect(useUserStore.getState()).toMatchObject({ token: null, refreshToken: null, accountType: null, userInfo: null });
  });

  it('names the user by nickname, else by user name', () => {
    expect(displayName({ kind: 'main', info: mainInfo })).toBe('小明');
    expect(displayName({ kind: 'main', info: { ...mainInfo, nickName: '' } })).toBe('u13800000000');
    expect(displayName({ kind: 'sub', info: subInfo })).toBe('dev01');
    expect(displayName(null)).toBe('');
  });

  it('gives the permission list the guards check', () => {
    expect(permissionList(null)).toBeNull();
    expect(permissionList({ kind: 'main', info: mainInfo })).toEqual(AUTHORITY_TYPES);
    expect(permissionList({ kind: 'sub', info: subInfo })).toEqual(['CONTAINER']);
  });
});
