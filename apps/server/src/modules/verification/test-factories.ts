/**
 * Test-only builders for the verification and upload suites: files with real magic numbers, uploads
 * through the API, a signed-in sub-account. Never imported by the server.
 */
import { call, registerUser, type TestApp } from '../../../test/helpers.js';
import { users, wallets } from '../../db/schema/index.js';
import { SessionService } from '../auth/sessions.js';
import { multipartBody } from '../invoices/test-factories.js';

export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0 a licence photo'), Buffer.from([0xff, 0xd9])]);
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a student card')]);
export const PDF = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export interface Account {
  token: string;
  id: number;
  telephone: string;
}

/** A registered main account with its id. */
export async function mainAccount(t: TestApp): Promise<Account> {
  const user = await registerUser(t);
  const info = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken });
  return { token: user.jwtToken, id: info.body.result.userId, telephone: user.telephone };
}

let subCounter = 0;
/** A signed-in sub-account of `parentId` with every permission (so only the main-account rule can refuse it). */
export async function subAccountToken(t: TestApp, parentId: number): Promise<string> {
  const db = t.deps.database.db;
  const full = { CONTAINER: 'ALL', ELASTIC: 'ALL', MIRROR: 'ALL', FILE_STORAGE: 'ALL', INVOICE: 'ALL', MODEL_DEPLOY: 'ALL' } as const;
  const [sub] = await db
    .insert(users)
    .values({ accountType: 2, parentId, username: `verif_${process.pid}_${++subCounter}`, nickName: '子账号', permissions: full })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db.insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
  const session = await db.transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  return session.jwtToken;
}

export interface UploadAnswer {
  id: number;
  fileName: string;
  contentType: string;
  size: number;
  purpose: string;
}

/** POST /user/upload/private with a purpose and one file. */
export function upload(
  t: TestApp,
  token: string,
  purpose: string | undefined,
  file?: { filename?: string; contentType?: string; content: Buffer; field?: string },
) {
  const body = multipartBody(
    purpose === undefined ? {} : { purpose },
    file ? { filename: file.filename ?? 'licence.jpg', contentType: file.contentType ?? 'image/jpeg', content: file.content, ...(file.field ? { field: file.field } : {}) } : undefined,
  );
  return call<UploadAnswer>(t.app, { method: 'POST', url: '/api/v1/user/upload/private', token, payload: body.payload, headers: body.headers });
}

/** An upload that must succeed: its id. */
export async function uploaded(t: TestApp, token: string, purpose: 'LICENCE' | 'STUDENT_CARD' | 'ID_CARD', content = JPEG): Promise<number> {
  const answer = await upload(t, token, purpose, { content });
  if (answer.status !== 200) throw new Error(`upload failed: ${JSON.stringify(answer.body)}`);
  return answer.body.result.id;
}
