import { openText, sealText } from '../../lib/crypto.js';

/** The purpose instance root passwords are sealed under (a key of their own, derived from the JWT secret). */
const ROOT_PASSWORD_PURPOSE = 'instance-root-password';

/** Root passwords are kept sealed (AES-256-GCM) so the owner can read them back, and nobody else. */
export function sealRootPassword(secret: string, password: string): string {
  return sealText(secret, ROOT_PASSWORD_PURPOSE, password);
}

export function openRootPassword(secret: string, sealed: string): string {
  return openText(secret, ROOT_PASSWORD_PURPOSE, sealed);
}
