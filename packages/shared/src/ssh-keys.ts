/** SSH public keys (SSH公钥) that new instances get: rules shared by the server and the console. */

/** Keys one user may keep. */
export const MAX_SSH_KEYS = 20;

export const SSH_KEY_NAME_MAX = 32;
/** 1–32 characters: Chinese, letters, digits, `-`, `_` and `.`. */
export const SSH_KEY_NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9._-]{1,32}$/u;
export const SSH_KEY_NAME_MESSAGE = `名称为1-${SSH_KEY_NAME_MAX}个字符，只能包含中文、字母、数字、“-”、“_”和“.”`;

/** A pasted public key longer than this is no single OpenSSH key (an RSA 16384 key is about 2.8 KB). */
export const SSH_PUBLIC_KEY_MAX_LENGTH = 8192;

/** The key types accepted, as the first word of an OpenSSH public key line, with how the console names them. */
export const SSH_KEY_TYPES = [
  { value: 'ssh-ed25519', label: 'ED25519' },
  { value: 'ecdsa-sha2-nistp256', label: 'ECDSA' },
  { value: 'ecdsa-sha2-nistp384', label: 'ECDSA' },
  { value: 'ecdsa-sha2-nistp521', label: 'ECDSA' },
  { value: 'ssh-rsa', label: 'RSA' },
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number]['value'];

export function sshKeyTypeLabel(type: string): string {
  return SSH_KEY_TYPES.find((item) => item.value === type)?.label ?? type;
}
