import { AccountType, AUTHORITY_TYPES } from '@slg/shared';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { TokenPair } from '../api/client';
import type { SubUserInfoDto, UserInfoDto } from '../api/user';

export const USER_STORE_KEY = 'slg-user';

/** The signed-in person as the console knows them, loaded after sign-in and on navigation. */
export type CurrentUser = { kind: 'main'; info: UserInfoDto } | { kind: 'sub'; info: SubUserInfoDto };

export interface UserState {
  token: string | null;
  refreshToken: string | null;
  accountType: AccountType | null;
  /** Not persisted: fetched again after a reload. */
  userInfo: CurrentUser | null;
  setSession(pair: TokenPair, accountType: AccountType): void;
  setTokens(pair: TokenPair): void;
  setUserInfo(user: CurrentUser): void;
  clear(): void;
}

type PersistedUser = Pick<UserState, 'token' | 'refreshToken' | 'accountType'>;

const EMPTY: PersistedUser & Pick<UserState, 'userInfo'> = {
  token: null,
  refreshToken: null,
  accountType: null,
  userInfo: null,
};

export const useUserStore = create<UserState>()(
  persist(
    (set) => ({
      ...EMPTY,
      setSession: (pair, accountType) =>
        set({ token: pair.jwtToken, refreshToken: pair.refreshToken, accountType, userInfo: null }),
      setTokens: (pair) => set({ token: pair.jwtToken, refreshToken: pair.refreshToken }),
      setUserInfo: (userInfo) => set({ userInfo }),
      clear: () => set({ ...EMPTY }),
    }),
    {
      name: USER_STORE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state): PersistedUser => ({
        token: state.token,
        refreshToken: state.refreshToken,
        accountType: state.accountType,
      }),
    },
  ),
);

export function isLoggedIn(state: Pick<UserState, 'token'>): boolean {
  return Boolean(state.token);
}

export function displayName(user: CurrentUser | null): string {
  if (!user) return '';
  return user.kind === 'main'
    ? user.info.nickName || user.info.userName
    : user.info.nickname || user.info.username;
}

/**
 * The permission list the guards check: a main account has every authority type, a sub-account the
 * ones granted to it (strings, as `/subuser/me` answers them), `null` while the info is not loaded.
 */
export function permissionList(user: CurrentUser | null): readonly string[] | null {
  if (!user) return null;
  return user.kind === 'main' ? AUTHORITY_TYPES : user.info.permissions;
}

export function accountTypeOf(user: CurrentUser): AccountType {
  return user.kind === 'main' ? AccountType.MAIN : AccountType.SUB;
}
