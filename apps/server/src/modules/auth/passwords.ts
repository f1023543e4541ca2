import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1), OWASP's minimum recommendation.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check when there is no account, so timing does not reveal the phone. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('no-such-account-0');
  await verifyPassword(await dummyHash, password);
}
