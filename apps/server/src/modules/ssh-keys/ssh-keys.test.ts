import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCodes, MAX_SSH_KEYS, NO_PERMISSIONS, SSH_KEY_NAME_MESSAGE, type Page } from '@slg/shared';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { simMachines, sshKeys, users, wallets } from '../../db/schema/index.js';
import { Reconciler } from '../rental/reconciler.js';
import { SessionService } from '../auth/sessions.js';
import { parseOpenSshPublicKey, SSH_KEY_MESSAGES } from './openssh.js';
import type { SshKeyView } from './service.js';

// ── OpenSSH wire format, written here independently of the parser (RFC 4253 §6.6, RFC 5656, RFC 8709) ──

function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A positive mpint: no leading zeros, one 0x00 when the high bit is set. */
function mpint(unsigned: Buffer): Buffer {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) start += 1;
  const bytes = unsigned.subarray(start);
  return sshString((bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

const CURVES: Record<string, string> = { 'P-256': 'nistp256', 'P-384': 'nistp384', 'P-521': 'nistp521' };

function blobOf(publicKey: KeyObject): { type: string; blob: Buffer } {
  const jwk = publicKey.export({ format: 'jwk' });
  const bytes = (value: string | undefined) => Buffer.from(value ?? '', 'base64url');
  if (jwk.kty === 'OKP') return { type: 'ssh-ed25519', blob: Buffer.concat([sshString('ssh-ed25519'), sshString(bytes(jwk.x))]) };
  if (jwk.kty === 'EC') {
    const curve = CURVES[jwk.crv ?? ''] ?? '';
    const type = `ecdsa-sha2-${curve}`;
    const point = Buffer.concat([Buffer.from([4]), bytes(jwk.x), bytes(jwk.y)]);
    return { type, blob: Buffer.concat([sshString(type), sshString(curve), sshString(point)]) };
  }
  return { type: 'ssh-rsa', blob: Buffer.concat([sshString('ssh-rsa'), mpint(bytes(jwk.e)), mpint(bytes(jwk.n))]) };
}

function lineOf(type: string, blob: Buffer, comment = ''): string {
  return `${type} ${blob.toString('base64')}${comment ? ` ${comment}` : ''}`;
}

function openSshOf(publicKey: KeyObject, comment = 'alice@laptop'): string {
  const { type, blob } = blobOf(publicKey);
  return lineOf(type, blob, comment);
}

const ed25519 = (comment?: string) => openSshOf(generateKeyPairSync('ed25519').publicKey, comment);
const ecdsa = (curve: 'P-256' | 'P-384' | 'P-521') => openSshOf(generateKeyPairSync('ec', { namedCurve: curve }).publicKey);
const rsa = (bits: number) => openSshOf(generateKeyPairSync('rsa', { modulusLength: bits }).publicKey);

/** Printed by OpenSSH's ssh-keygen (`ssh-keygen -t … -C alice@laptop`, then `ssh-keygen -l -f`). */
const SSH_KEYGEN = [
  {
    line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL/m6pT0EORG5VXuiHa8x/XWhxZX05X36W2Xwn0BCCt2 alice@laptop',
    fingerprint: 'SHA256:iEcNivIfJdfm+QnJSqSnCoigR3mZnuPfeNq+FCGa4bI',
    bits: 256,
  },
  {
    line: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBGr76mK/La6xKWKaaK7GeskkEHzbdCbsZJXnpr6xeEZYieJ0AIGa6zKtCce4gKQAcYX4wo/2S7oCN8jOrOTUoRb1BPYD4kXoMoJH29ZavmjdERkaBaRMDgEmZtE6O1TsgA== alice@laptop',
    fingerprint: 'SHA256:ITDp7gpEncL07ROqNjC/PHrTkwQjcQ20iYb41GjQu0g',
    bits: 384,
  },
  {
    line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDHgqflWkFaCgi/cF0DDP8HPH2tSSr8kEUa7cHyPodLPeiQRQGQM3tvYoqMuxcAoyz7itk0whylWRc+/1x3rM8su0AGtSgZoTNh8GeqodLAjC7wPjLt5upY4PsGe8pmNuO6okvWbLdtawibRBtA8e2cJjkStlPp4nlNa4Ji1j/2vgTC0o6OHonm8SZ/auFZxbO8vJfX5MBj/6NKs3yru7Wp8gGyLO7M7OZIyHmnpRhGL8f79GPhTs3c38MxWqszOzImUp+qvHUA5O6/2/HgA4DxU5cfqQrvsEH6je/jJyaisuuKMjqOs+NYjen8mqxTXO1IM4ib4nXioHm6oCs9irhx alice@laptop',
    fingerprint: 'SHA256:GeSfCddU5InuDsjmEvxhn0SeBBTvBZTEVNuLyWlo2uo',
    bits: 2048,
  },
] as const;
/** `ssh-keygen -t dsa` (a real DSA public key). */
const DSA_KEY =
  'ssh-dss AAAAB3NzaC1kc3MAAACBAID5OnV/H3Z1nLFP01urnf3y5fCa8cic4O/lDoF6NA4/211iRqo0woorZpCArzz3f9f5CBWenIEiVYxhuxBjocueXZlj+1JA+QtXTOTlzRkWXzvjwe9tUf6UvakrTXgrphU7mgNSsz5c3FKYek4AjN9SIJ4SNiubmoqPODXDnKNTAAAAFQDuT4zg+5/D2KEZQIn8cDBK7XmVYwAAAIB1lBkJtu8TcbSZPQzzTOBjPp8IjujTa6lG6svMrVJSgmqg3IGoFcOW4ud059dbBu+IpPLtddaNJgPIXYeCg4D/E0zO+MqPOTOSMFJYdT56uqVyEmX+Nlt85Z+6yL0PquZnHAlERvYDC5RhswN5s55zPf9by3eJrIcQ9LCgVQZEqAAAAIAuXUd1uD0UMKl778MR297HIvE+XFI1jFLQiduMpAE9fhwnT/kahSoAAT6FC+CqQDtsqbY13v6NdpKD4woYrPxbtSWCgp8ab5ms3+pCWhbQK0N625wtiqNJlO15RJrCNnTwg0LwykUb9khrERElL/CaVxcwm8dh7sjGgzmbBTR1sQ== root@vm';

/** Flips bits of the blob's byte at `index` and re-encodes it: valid base64, wrong key. */
function tampered(line: string, index: number): string {
  const [type = '', body = '', ...rest] = line.split(' ');
  const blob = Buffer.from(body, 'base64');
  blob[index] = (blob[index] ?? 0) ^ 0x5a;
  return [type, blob.toString('base64'), ...rest].join(' ');
}

function refusal(input: string): string {
  const parsed = parseOpenSshPublicKey(input);
  if (parsed.ok) throw new Error(`accepted: ${input.slice(0, 60)}`);
  return parsed.message;
}

describe('reading OpenSSH public keys', () => {
  it('accepts Ed25519, ECDSA on P-256/384/521 and RSA of 2048 and 4096 bits, as the wire format says', () => {
    const cases: [string, string, number][] = [
      [ed25519(), 'ssh-ed25519', 256],
      [ecdsa('P-256'), 'ecdsa-sha2-nistp256', 256],
      [ecdsa('P-384'), 'ecdsa-sha2-nistp384', 384],
      [ecdsa('P-521'), 'ecdsa-sha2-nistp521', 521],
      [rsa(2048), 'ssh-rsa', 2048],
      [rsa(4096), 'ssh-rsa', 4096],
    ];
    for (const [line, type, bits] of cases) {
      const parsed = parseOpenSshPublicKey(line);
      expect(parsed, line).toMatchObject({ ok: true, key: { type, bits, comment: 'alice@laptop', line } });
    }
  });

  it('prints the fingerprint and size ssh-keygen -l prints', () => {
    for (const key of SSH_KEYGEN) {
      expect(parseOpenSshPublicKey(key.line)).toMatchObject({ ok: true, key: { fingerprint: key.fingerprint, bits: key.bits, comment: 'alice@laptop' } });
    }
  });

  it('trims whitespace and line breaks around the key and keeps the comment as written', () => {
    const [type, body] = SSH_KEYGEN[0].line.split(' ');
    const parsed = parseOpenSshPublicKey(`\r\n  ${type}\t${body}   工作笔记本 alice@laptop  \r\n\n`);
    expect(parsed).toMatchObject({ ok: true, key: { comment: '工作笔记本 alice@laptop', line: `${type} ${body} 工作笔记本 alice@laptop` } });
    expect(parseOpenSshPublicKey(`${type} ${body}`)).toMatchObject({ ok: true, key: { comment: '', line: `${type} ${body}` } });
  });

  it('refuses private keys, telling the user to paste the .pub file', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const rsaPem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const openSshHeader = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n';
    for (const pem of [pkcs8, rsaPem, openSshHeader]) {
      expect(refusal(pem)).toBe(SSH_KEY_MESSAGES.privateKey);
    }
    expect(SSH_KEY_MESSAGES.privateKey).toContain('.pub');
  });

  it('refuses RSA below 2048 bits and DSA, naming why', () => {
    expect(refusal(rsa(1024))).toBe('RSA 公钥至少需要2048位，该公钥只有1024位。可用 ssh-keygen -t ed25519 生成新的密钥');
    expect(refusal(DSA_KEY)).toBe(SSH_KEY_MESSAGES.dsa);
  });

  it('refuses tampered keys: broken base64, a cut blob, a wrong inner type, a point off the curve, trailing bytes', () => {
    const [edLine] = [SSH_KEYGEN[0].line];
    const [, edBody = ''] = edLine.split(' ');
    const ecLine = SSH_KEYGEN[1].line;
    const rsaLine = SSH_KEYGEN[2].line;
    // Not base64, or base64 with the padding bits set.
    expect(refusal(`ssh-ed25519 ${edBody.slice(0, 10)}!${edBody.slice(11)}`)).toBe(SSH_KEY_MESSAGES.badBase64);
    expect(refusal(`ssh-ed25519 ${edBody.slice(0, -1)}`)).toBe(SSH_KEY_MESSAGES.badBase64);
    expect(refusal(`ssh-ed25519 ${edBody.slice(0, -2)}3=`)).toBe(SSH_KEY_MESSAGES.badBase64);
    // Cut: the last string's length runs past the end.
    const edBlob = Buffer.from(edBody, 'base64');
    expect(refusal(lineOf('ssh-ed25519', edBlob.subarray(0, edBlob.length - 3)))).toBe(SSH_KEY_MESSAGES.corrupt);
    // A length prefix changed by the tampering.
    expect(refusal(tampered(edLine, 2))).toBe(SSH_KEY_MESSAGES.corrupt);
    // The type inside the blob must be the one in front.
    expect(refusal(tampered(edLine, 6))).toMatch(/^公钥内容与类型不符：开头写的是 ssh-ed25519/);
    expect(refusal(`ssh-rsa ${edBody}`)).toBe('公钥内容与类型不符：开头写的是 ssh-rsa，内容却是 ssh-ed25519，请从 .pub 文件重新复制');
    // ECDSA: the point is checked against its curve; the curve name must match the type.
    const ecBlob = Buffer.from(ecLine.split(' ')[1] ?? '', 'base64');
    expect(refusal(tampered(ecLine, ecBlob.length - 10))).toBe(SSH_KEY_MESSAGES.badPoint);
    const ecWrongCurve = Buffer.concat([sshString('ecdsa-sha2-nistp384'), sshString('nistp256'), ecBlob.subarray(4 + 19 + 4 + 8)]);
    expect(refusal(lineOf('ecdsa-sha2-nistp384', ecWrongCurve))).toMatch(/^公钥内容与类型不符/);
    // Ed25519: exactly 32 bytes, and a point of the curve (y = 2 is none; y = 3 is one).
    expect(refusal(lineOf('ssh-ed25519', Buffer.concat([sshString('ssh-ed25519'), sshString(Buffer.alloc(31, 7))])))).toBe(SSH_KEY_MESSAGES.corrupt);
    const y = (value: number) => Buffer.concat([Buffer.from([value]), Buffer.alloc(31)]);
    expect(refusal(lineOf('ssh-ed25519', Buffer.concat([sshString('ssh-ed25519'), sshString(y(2))])))).toBe(SSH_KEY_MESSAGES.badPoint);
    expect(parseOpenSshPublicKey(lineOf('ssh-ed25519', Buffer.concat([sshString('ssh-ed25519'), sshString(y(3))]))).ok).toBe(true);
    // Bytes after the key.
    expect(refusal(lineOf('ssh-ed25519', Buffer.concat([edBlob, Buffer.from([0, 0, 0, 0])])))).toBe(SSH_KEY_MESSAGES.corrupt);
    // RSA: mpints as OpenSSH reads them (no sign bit, no padding zero), a modulus bit length from the mpint.
    const rsaBlob = Buffer.from(rsaLine.split(' ')[1] ?? '', 'base64');
    const exponentEnd = 4 + 7 + 4 + 3;
    const modulus = rsaBlob.subarray(exponentEnd + 4);
    const negative = Buffer.concat([rsaBlob.subarray(0, exponentEnd), sshString(modulus.subarray(1))]);
    expect(refusal(lineOf('ssh-rsa', negative))).toBe(SSH_KEY_MESSAGES.corrupt);
    const padded = Buffer.concat([rsaBlob.subarray(0, exponentEnd), sshString(Buffer.concat([Buffer.from([0, 0]), modulus.subarray(1)]))]);
    expect(refusal(lineOf('ssh-rsa', padded))).toBe(SSH_KEY_MESSAGES.corrupt);
    const short = Buffer.concat([rsaBlob.subarray(0, exponentEnd), sshString(Buffer.concat([Buffer.from([0x01]), modulus.subarray(2)]))]);
    expect(refusal(lineOf('ssh-rsa', short))).toBe(`RSA 公钥至少需要2048位，该公钥只有${(modulus.length - 2) * 8 + 1}位。可用 ssh-keygen -t ed25519 生成新的密钥`);
  });

  it('refuses garbage, several keys at once and formats it does not take, each with its own message', () => {
    const [one, two] = [ed25519('one'), ed25519('two')];
    expect(refusal('')).toBe(SSH_KEY_MESSAGES.empty);
    expect(refusal('  \n ')).toBe(SSH_KEY_MESSAGES.empty);
    expect(refusal('hello world')).toBe(SSH_KEY_MESSAGES.unknownFormat);
    expect(refusal('ssh-ed25519')).toBe(SSH_KEY_MESSAGES.missingBody);
    expect(refusal(`${one}\n${two}`)).toBe(SSH_KEY_MESSAGES.multipleKeys);
    expect(refusal(`${one} ${two}`)).toBe(SSH_KEY_MESSAGES.multipleKeys);
    expect(refusal(`${one}\nsecond line`)).toBe(SSH_KEY_MESSAGES.multipleLines);
    expect(refusal(`command="ls" ${one}`)).toBe(SSH_KEY_MESSAGES.options);
    expect(refusal(`${one}\u0000`)).toBe(SSH_KEY_MESSAGES.controlCharacters);
    expect(refusal('---- BEGIN SSH2 PUBLIC KEY ----\nAAAAC3NzaC1lZDI1NTE5\n---- END SSH2 PUBLIC KEY ----')).toBe(SSH_KEY_MESSAGES.ssh2Format);
    expect(refusal('sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t')).toBe(SSH_KEY_MESSAGES.unsupportedType('sk-ssh-ed25519@openssh.com'));
    expect(refusal(`ssh-ed25519 ${'A'.repeat(9000)}`)).toBe(SSH_KEY_MESSAGES.tooLong);
    // A comment that only mentions a key type is a comment.
    expect(parseOpenSshPublicKey(ed25519('my ssh-rsa replacement')).ok).toBe(true);
  });
});

// ── The API ───────────────────────────────────────────────────────────────────────────────────────

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;

function addKey(token: string, payload: Record<string, string>) {
  return call<SshKeyView>(t.app, { method: 'POST', url: '/api/v1/ssh_key', token, payload });
}

function listOf(token: string, query = '') {
  return call<Page<SshKeyView>>(t.app, { method: 'GET', url: `/api/v1/ssh_key${query}`, token });
}

function removeKey(token: string, keyName: string) {
  return call<null>(t.app, { method: 'DELETE', url: `/api/v1/ssh_key?keyName=${encodeURIComponent(keyName)}`, token });
}

async function userIdOf(token: string): Promise<number> {
  const info = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token });
  return info.body.result.userId;
}

let subAccountCounter = 0;
/** A sub-account row written directly (creating sub-accounts is a later issue), signed in. */
async function subAccountOf(parentId: number, container: 'SELF' | 'ALL' | 'NONE'): Promise<{ id: number; token: string }> {
  subAccountCounter += 1;
  const [sub] = await db()
    .insert(users)
    .values({ accountType: 2, parentId, username: `ssh_${parentId}_${subAccountCounter}`, nickName: '训练组', permissions: { ...NO_PERMISSIONS, CONTAINER: container }, sharedMainBalance: false })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db().insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
  const session = await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  return { id: sub.id, token: session.jwtToken };
}

describe('keeping SSH public keys', () => {
  it('adds keys of every accepted type and lists them newest first, with nothing more than the console needs', async () => {
    const user = await registerUser(t);
    const keys: [string, string][] = [
      ['laptop', SSH_KEYGEN[0].line],
      ['工作站-ecdsa', ecdsa('P-256')],
      ['server_521', ecdsa('P-521')],
      ['rsa.4096', rsa(4096)],
      ['rsa-2048', SSH_KEYGEN[2].line],
    ];
    for (const [keyName, key] of keys) {
      const added = await addKey(user.jwtToken, { keyName, key: `\n ${key} \n` });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.result.keyName).toBe(keyName);
      t.clock.advance(1);
    }
    const list = await listOf(user.jwtToken);
    expect(list.status).toBe(200);
    expect(list.body.result.total).toBe(5);
    expect(list.body.result.list.map((item) => [item.keyName, item.keyType, item.bits])).toEqual([
      ['rsa-2048', 'ssh-rsa', 2048],
      ['rsa.4096', 'ssh-rsa', 4096],
      ['server_521', 'ecdsa-sha2-nistp521', 521],
      ['工作站-ecdsa', 'ecdsa-sha2-nistp256', 256],
      ['laptop', 'ssh-ed25519', 256],
    ]);
    const laptop = list.body.result.list.find((item) => item.keyName === 'laptop');
    expect(laptop).toEqual({
      keyName: 'laptop',
      keyType: 'ssh-ed25519',
      bits: 256,
      fingerprint: SSH_KEYGEN[0].fingerprint,
      comment: 'alice@laptop',
      createdAt: expect.any(String),
    });
    // Stored as one normalised authorized_keys line.
    const [row] = await db().select().from(sshKeys).where(eq(sshKeys.fingerprint, SSH_KEYGEN[0].fingerprint));
    expect(row?.publicKey).toBe(SSH_KEYGEN[0].line);
  }, 30_000);

  it('refuses what is no acceptable public key with a clear message, and names outside the rule', async () => {
    const user = await registerUser(t);
    const refusals: [Record<string, string>, string][] = [
      [{ keyName: 'a', key: rsa(1024) }, 'RSA 公钥至少需要2048位，该公钥只有1024位。可用 ssh-keygen -t ed25519 生成新的密钥'],
      [{ keyName: 'a', key: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }, SSH_KEY_MESSAGES.privateKey],
      [{ keyName: 'a', key: tampered(SSH_KEYGEN[1].line, 120) }, SSH_KEY_MESSAGES.badPoint],
      [{ keyName: 'a', key: 'not a key' }, SSH_KEY_MESSAGES.unknownFormat],
      [{ keyName: 'a', key: `${ed25519()}\n${ed25519()}` }, SSH_KEY_MESSAGES.multipleKeys],
      [{ keyName: 'a', key: DSA_KEY }, SSH_KEY_MESSAGES.dsa],
      [{ keyName: 'a', key: '' }, SSH_KEY_MESSAGES.empty],
      [{ keyName: 'a' }, '请输入公钥'],
      [{ key: ed25519() }, '请输入名称'],
      [{ keyName: '', key: ed25519() }, SSH_KEY_NAME_MESSAGE],
      [{ keyName: 'x'.repeat(33), key: ed25519() }, SSH_KEY_NAME_MESSAGE],
      [{ keyName: 'my laptop', key: ed25519() }, SSH_KEY_NAME_MESSAGE],
      [{ keyName: 'a/b', key: ed25519() }, SSH_KEY_NAME_MESSAGE],
    ];
    for (const [payload, message] of refusals) {
      const answer = await addKey(user.jwtToken, payload);
      expect(answer.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(answer.body).toMatchObject({ code: ErrorCodes.VALIDATION.code, rspmsg: message });
    }
    expect((await listOf(user.jwtToken)).body.result.total).toBe(0);
    // 32 characters, Chinese counted as one each, trimmed.
    expect((await addKey(user.jwtToken, { keyName: ` ${'键'.repeat(32)} `, key: ed25519() })).body.result.keyName).toBe('键'.repeat(32));
  });

  it('refuses a duplicate name with 40026 and the same key twice naming the key it already is', async () => {
    const user = await registerUser(t);
    const key = ed25519('first');
    expect((await addKey(user.jwtToken, { keyName: 'laptop', key })).status).toBe(200);
    const sameName = await addKey(user.jwtToken, { keyName: 'laptop', key: ed25519() });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ rspcode: 40026, code: 40026, rspmsg: '名称已存在，请重新输入' });
    // The same key with another comment is the same key (same fingerprint).
    const sameKey = await addKey(user.jwtToken, { keyName: 'desktop', key: `${key.split(' ').slice(0, 2).join(' ')} other@host` });
    expect(sameKey.status).toBe(409);
    expect(sameKey.body).toMatchObject({ code: ErrorCodes.SSH_KEY_EXISTS.code, rspmsg: '该公钥已添加，名称为“laptop”，无需重复添加' });
    expect((await listOf(user.jwtToken)).body.result.total).toBe(1);
  });

  it('keeps keys to their user: another account and a sub-account neither see nor delete them, and have their own', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const key = ed25519();
    expect((await addKey(alice.jwtToken, { keyName: 'laptop', key })).status).toBe(200);
    expect((await listOf(bob.jwtToken)).body.result).toMatchObject({ list: [], total: 0 });
    const bobDelete = await removeKey(bob.jwtToken, 'laptop');
    expect(bobDelete.status).toBe(404);
    expect(bobDelete.body.rspmsg).toBe('没有名为“laptop”的SSH公钥，可能已被删除');
    // Names and keys are unique per user only.
    expect((await addKey(bob.jwtToken, { keyName: 'laptop', key })).status).toBe(200);
    expect((await removeKey(bob.jwtToken, 'laptop')).status).toBe(200);
    expect((await listOf(alice.jwtToken)).body.result.list.map((item) => item.keyName)).toEqual(['laptop']);

    const aliceId = await userIdOf(alice.jwtToken);
    const all = await subAccountOf(aliceId, 'ALL');
    const none = await subAccountOf(aliceId, 'NONE');
    // A sub-account, even with ALL, has its own keys; the main account does not see them either.
    expect((await listOf(all.token)).body.result.total).toBe(0);
    expect((await removeKey(all.token, 'laptop')).status).toBe(404);
    expect((await addKey(all.token, { keyName: 'laptop', key })).status).toBe(200);
    expect((await listOf(all.token)).body.result.list.map((item) => item.keyName)).toEqual(['laptop']);
    expect((await listOf(alice.jwtToken)).body.result.total).toBe(1);
    for (const answer of [await listOf(none.token), await addKey(none.token, { keyName: 'x', key: ed25519() }), await removeKey(none.token, 'laptop')]) {
      expect(answer.status).toBe(403);
    }
    expect((await removeKey(alice.jwtToken, 'laptop')).status).toBe(200);
    expect((await listOf(alice.jwtToken)).body.result.total).toBe(0);
    expect((await listOf(all.token)).body.result.total).toBe(1);
    expect((await removeKey(alice.jwtToken, 'laptop')).status).toBe(404);
  });

  it(`keeps at most ${MAX_SSH_KEYS} keys per user, also under 30 requests at once`, async () => {
    const user = await registerUser(t);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => addKey(user.jwtToken, { keyName: `key-${index}`, key: ed25519() })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(MAX_SSH_KEYS);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(30 - MAX_SSH_KEYS);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: ErrorCodes.STATE_CONFLICT.code, rspmsg: `最多保存${MAX_SSH_KEYS}个SSH公钥，请先删除不再使用的公钥` });
    }
    const userId = await userIdOf(user.jwtToken);
    expect(await db().$count(sshKeys, eq(sshKeys.creatorId, userId))).toBe(MAX_SSH_KEYS);
    // Deleting one makes room for one.
    const kept = (await listOf(user.jwtToken, '?pageSize=20')).body.result.list;
    expect(kept).toHaveLength(MAX_SSH_KEYS);
    expect((await removeKey(user.jwtToken, kept[0]?.keyName ?? '')).status).toBe(200);
    expect((await addKey(user.jwtToken, { keyName: 'again', key: ed25519() })).status).toBe(200);
    expect((await addKey(user.jwtToken, { keyName: 'again-2', key: ed25519() })).status).toBe(409);
  });
});

describe('instances get the keys', () => {
  const HOST = 'bj-a-4090-02';
  const IMAGE = 'pytorch-2.5.1-py3.12-cu124';

  async function createInstance(token: string): Promise<string> {
    const created = await call<{ instanceId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token,
      payload: { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.result.instanceId;
  }

  async function machineKeys(instanceId: string): Promise<string[] | undefined> {
    const [machine] = await db().select({ keys: simMachines.authorizedKeys }).from(simMachines).where(eq(simMachines.instanceId, instanceId));
    return machine?.keys;
  }

  it('writes each creator’s keys at that moment into the machines one pass creates; later changes leave them alone', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const carol = await registerUser(t);
    for (const user of [alice, bob, carol]) await rechargeThroughSandbox(t, user.jwtToken, 10_000);
    const aliceKeys = [ed25519('alice@laptop'), ecdsa('P-384')];
    for (const [index, key] of aliceKeys.entries()) {
      expect((await addKey(alice.jwtToken, { keyName: `alice-${index}`, key })).status).toBe(200);
      t.clock.advance(1);
    }
    const bobKey = SSH_KEYGEN[2].line;
    expect((await addKey(bob.jwtToken, { keyName: 'bob', key: bobKey })).status).toBe(200);

    const aliceFirst = await createInstance(alice.jwtToken);
    const aliceSecond = await createInstance(alice.jwtToken);
    const bobs = await createInstance(bob.jwtToken);
    const carols = await createInstance(carol.jwtToken);
    // Nothing is written before the reconciler creates the machines: the keys are read then.
    expect(await machineKeys(aliceFirst)).toBeUndefined();
    expect((await removeKey(alice.jwtToken, 'alice-1')).status).toBe(200);
    const late = ed25519('added-before-the-pass');
    expect((await addKey(alice.jwtToken, { keyName: 'alice-late', key: late })).status).toBe(200);

    await new Reconciler(t.deps).tick();
    expect(await machineKeys(aliceFirst)).toEqual([aliceKeys[0], late]);
    expect(await machineKeys(aliceSecond)).toEqual([aliceKeys[0], late]);
    expect(await machineKeys(bobs)).toEqual([bobKey]);
    expect(await machineKeys(carols)).toEqual([]);

    // Keys changed after the machine exists do not touch it.
    expect((await removeKey(alice.jwtToken, 'alice-0')).status).toBe(200);
    t.clock.advance(3);
    await new Reconciler(t.deps).tick();
    expect(await machineKeys(aliceFirst)).toEqual([aliceKeys[0], late]);
  }, 30_000);
});
