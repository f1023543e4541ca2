/**
 * SSH公钥: the keys new instances get in root's authorized_keys. The server reads and checks the keys
 * (docs/api-compute.md); the console sends what the user pasted and shows the refusal on its field.
 */
import { ErrorCodes, MAX_SSH_KEYS, type Page } from '@slg/shared';
import type { SshKeyView } from '@slg/shared/views/ssh-keys';
import { useQuery } from '@tanstack/react-query';
import { isApiError, request } from './client';
import { queryKeys } from './queryKeys';

export type { SshKeyView } from '@slg/shared/views/ssh-keys';

export interface NewSshKey {
  keyName: string;
  /** The .pub file's line as pasted. */
  key: string;
}

export const sshKeyKeys = {
  all: queryKeys.sshKeys,
  list: () => [...queryKeys.sshKeys, 'list'] as const,
};

/** Every key of the caller: at most MAX_SSH_KEYS, so one page holds them all. */
export function fetchSshKeys(): Promise<Page<SshKeyView>> {
  return request<Page<SshKeyView>>({ url: '/ssh_key', params: { page: 1, pageSize: MAX_SSH_KEYS } });
}

export function addSshKey(input: NewSshKey): Promise<SshKeyView> {
  return request<SshKeyView>({ method: 'POST', url: '/ssh_key', data: input });
}

export function deleteSshKey(keyName: string): Promise<null> {
  return request<null>({ method: 'DELETE', url: '/ssh_key', params: { keyName } });
}

export function useSshKeysQuery() {
  return useQuery({ queryKey: sshKeyKeys.list(), queryFn: fetchSshKeys });
}

/**
 * The field of the add form a refusal of `POST /ssh_key` is about: 40026 is the name; 40027 (the key is
 * already there) and a 400 are the key (the form checks the name by the shared rule before sending, so
 * a 400 that reaches it is about the key). Anything else (the limit, the network) is not a field's.
 */
export function sshKeyFieldOf(error: unknown): keyof NewSshKey | null {
  if (!isApiError(error)) return null;
  if (error.code === ErrorCodes.NAME_EXISTS.code) return 'keyName';
  if (error.code === ErrorCodes.SSH_KEY_EXISTS.code || error.status === 400) return 'key';
  return null;
}
