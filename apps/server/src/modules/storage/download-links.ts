import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Download links: a URL the browser fetches itself, so a file of many GB streams to the disk through
 * the browser's own download manager (with its progress, pause and resume) instead of through the
 * page's memory. The link carries what to send, signed with a key derived from JWT_SECRET, and expires
 * after DOWNLOAD_LINK_SECONDS; whoever has it may fetch that one file until then (like any presigned
 * object-store URL), so it is only given to a caller who may read the file, and the file is checked
 * again when the link is used (a deleted store or dataset answers 404).
 */
export const DOWNLOAD_LINK_SECONDS = 300;

export type DownloadTarget =
  /** A file of a main account's 文件存储. */
  | { kind: 'store'; ownerId: number; zoneId: string; path: string }
  /** A file of a dataset, as the main account `viewerOwnerId` (null: anyone) may see it. */
  | { kind: 'dataset'; datasetId: number; viewerOwnerId: number | null; path: string };

type Signed = DownloadTarget & { exp: number };

const keyOf = (secret: string) => createHmac('sha256', secret).update('slg download links v1').digest();
const signatureOf = (secret: string, payload: string) => createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

/** The token of a link to `target`, valid for DOWNLOAD_LINK_SECONDS from `now`. */
export function signDownload(secret: string, target: DownloadTarget, now: Date): { token: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + DOWNLOAD_LINK_SECONDS * 1000);
  const payload = Buffer.from(JSON.stringify({ ...target, exp: Math.floor(expiresAt.getTime() / 1000) } satisfies Signed)).toString('base64url');
  return { token: `${payload}.${signatureOf(secret, payload)}`, expiresAt };
}

/** What a token links to, or null when it is malformed, forged or expired. */
export function verifyDownload(secret: string, token: string, now: Date): DownloadTarget | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(signatureOf(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let signed: Signed;
  try {
    signed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Signed;
  } catch {
    return null;
  }
  if (typeof signed.exp !== 'number' || signed.exp * 1000 < now.getTime()) return null;
  const { exp: _exp, ...target } = signed;
  return target;
}
