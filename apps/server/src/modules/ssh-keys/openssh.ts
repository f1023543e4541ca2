/**
 * OpenSSH public keys as users paste them (`ssh-ed25519 AAAAC3… user@laptop`), read the way OpenSSH
 * reads them (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709): the base64 blob is a sequence of
 * length-prefixed strings whose first one repeats the key type. Only what this platform accepts gets
 * through: Ed25519, ECDSA on NIST P-256/384/521 and RSA with a modulus of at least 2048 bits.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { SSH_KEY_TYPES, SSH_PUBLIC_KEY_MAX_LENGTH, type SshKeyType } from '@slg/shared';

export interface OpenSshPublicKey {
  type: SshKeyType;
  /** Key size as `ssh-keygen -l` prints it: 256 for Ed25519, the curve size for ECDSA, the modulus bits for RSA. */
  bits: number;
  /** Whatever followed the key on its line (usually `user@host`); empty when nothing did. */
  comment: string;
  /** `type base64 [comment]` on one line: what goes into authorized_keys. */
  line: string;
  /** `SHA256:` and the unpadded base64 of the blob's SHA-256, as `ssh-keygen -l` prints it. */
  fingerprint: string;
}

export type ParsedPublicKey = { ok: true; key: OpenSshPublicKey } | { ok: false; message: string };

export const RSA_MIN_BITS = 2048;
/** OpenSSH refuses larger moduli (SSHBUF_MAX_BIGNUM). */
export const RSA_MAX_BITS = 16384;

const ACCEPTED_TYPES = 'ssh-ed25519、ecdsa-sha2-nistp256/384/521 或 ssh-rsa（至少2048位）';
const GENERATE_HINT = '可用 ssh-keygen -t ed25519 生成新的密钥';

export const SSH_KEY_MESSAGES = {
  empty: '请输入公钥',
  tooLong: '公钥过长：一次只能添加一个公钥，请粘贴 .pub 文件中的那一行',
  privateKey: '这是私钥，私钥请妥善保管、不要上传。请粘贴公钥文件（.pub，例如 ~/.ssh/id_ed25519.pub）的内容',
  ssh2Format: '这是 SSH2（RFC 4716）格式的公钥，请先用 ssh-keygen -i -f <文件名> 转换为 OpenSSH 格式，再粘贴输出的那一行',
  multipleKeys: '一次只能添加一个公钥，请逐个添加',
  multipleLines: '公钥应为一行文本（.pub 文件的内容），请去掉多余的换行后重新粘贴',
  controlCharacters: '公钥含有不可见的控制字符，请从 .pub 文件重新复制',
  options: '请只粘贴公钥本身（.pub 文件的内容），不要包含 authorized_keys 中的选项',
  unknownFormat: `公钥格式不正确：应以 ${ACCEPTED_TYPES} 开头，请粘贴 .pub 文件的完整内容`,
  dsa: `不支持 DSA（ssh-dss）公钥：它已不再安全，新版 OpenSSH 默认停用。${GENERATE_HINT}`,
  unsupportedType: (type: string) => `不支持 ${type} 类型的公钥，支持 ${ACCEPTED_TYPES}`,
  missingBody: '公钥不完整：类型后面缺少密钥内容，请粘贴 .pub 文件的完整内容',
  badBase64: '公钥内容已损坏（不是有效的 Base64 编码），请从 .pub 文件重新复制完整内容',
  corrupt: '公钥内容已损坏或不完整，请从 .pub 文件重新复制完整内容',
  typeMismatch: (declared: string, inner: string) => `公钥内容与类型不符：开头写的是 ${declared}，内容却是 ${inner || '未知类型'}，请从 .pub 文件重新复制`,
  badPoint: '公钥内容已损坏：密钥不是曲线上的有效点，请从 .pub 文件重新复制',
  rsaTooSmall: (bits: number) => `RSA 公钥至少需要${RSA_MIN_BITS}位，该公钥只有${bits}位。${GENERATE_HINT}`,
  rsaTooLarge: (bits: number) => `RSA 公钥最多${RSA_MAX_BITS}位，该公钥有${bits}位`,
} as const;

const ACCEPTED = new Set<string>(SSH_KEY_TYPES.map((item) => item.value));
/** The first word of any OpenSSH key line, accepted or not (certificates and security keys included). */
const KEY_TYPE_SOURCE = String.raw`(?:ssh-(?:ed25519|ed448|rsa|dss)|ecdsa-sha2-\S+|sk-\S+|\S+-cert-v01@openssh\.com)`;
const ANY_KEY_TYPE = new RegExp(`^${KEY_TYPE_SOURCE}$`);
/** A key type followed by a blob (every blob starts with the length of its type name: `AAAA`). */
const KEY_IN_TEXT = new RegExp(`(?:^|\\s)${KEY_TYPE_SOURCE}\\s+AAAA[A-Za-z0-9+/]`);
const KEY_LINE = /^(\S+)(?:\s+(\S+))?(?:\s+([\s\S]*))?$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const ECDSA_CURVES: Record<string, { curve: string; jwkCurve: string; bits: number; coordinateBytes: number }> = {
  'ecdsa-sha2-nistp256': { curve: 'nistp256', jwkCurve: 'P-256', bits: 256, coordinateBytes: 32 },
  'ecdsa-sha2-nistp384': { curve: 'nistp384', jwkCurve: 'P-384', bits: 384, coordinateBytes: 48 },
  'ecdsa-sha2-nistp521': { curve: 'nistp521', jwkCurve: 'P-521', bits: 521, coordinateBytes: 66 },
};

class Refused extends Error {}

/** Reads the length-prefixed strings of an SSH wire blob; any overrun is a corrupt key. */
class WireReader {
  private offset = 0;

  constructor(private readonly blob: Buffer) {}

  string(): Buffer {
    if (this.offset + 4 > this.blob.length) throw new Refused(SSH_KEY_MESSAGES.corrupt);
    const length = this.blob.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (length > this.blob.length - start) throw new Refused(SSH_KEY_MESSAGES.corrupt);
    this.offset = start + length;
    return this.blob.subarray(start, this.offset);
  }

  /** An mpint (RFC 4251 §5): two's complement, big-endian; OpenSSH refuses negative and padded ones. */
  positiveMpint(): Buffer {
    const bytes = this.string();
    const first = bytes[0];
    if (first === undefined || (first & 0x80) !== 0) throw new Refused(SSH_KEY_MESSAGES.corrupt);
    if (first === 0 && (bytes.length === 1 || ((bytes[1] ?? 0) & 0x80) === 0)) throw new Refused(SSH_KEY_MESSAGES.corrupt);
    return first === 0 ? bytes.subarray(1) : bytes;
  }

  end(): void {
    if (this.offset !== this.blob.length) throw new Refused(SSH_KEY_MESSAGES.corrupt);
  }
}

function bitLength(unsigned: Buffer): number {
  const first = unsigned[0] ?? 0;
  return first === 0 ? 0 : (unsigned.length - 1) * 8 + (32 - Math.clz32(first));
}

// Ed25519 (RFC 8032 §5.1.3): a y below p whose x² = (y² − 1) / (d·y² + 1) has a square root.
const ED25519_P = 2n ** 255n - 19n;
const ED25519_D = (((-121665n * modPow(121666n, ED25519_P - 2n, ED25519_P)) % ED25519_P) + ED25519_P) % ED25519_P;

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

function isEd25519Point(encoded: Buffer): boolean {
  const bytes = Buffer.from(encoded);
  const sign = ((bytes[31] ?? 0) & 0x80) !== 0;
  bytes[31] = (bytes[31] ?? 0) & 0x7f;
  const y = BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
  if (y >= ED25519_P) return false;
  const y2 = (y * y) % ED25519_P;
  const u = (y2 - 1n + ED25519_P) % ED25519_P;
  const v = (ED25519_D * y2 + 1n) % ED25519_P;
  const x2 = (u * modPow(v, ED25519_P - 2n, ED25519_P)) % ED25519_P;
  if (x2 === 0n) return !sign;
  return modPow(x2, (ED25519_P - 1n) / 2n, ED25519_P) === 1n;
}

function isOnCurve(jwkCurve: string, x: Buffer, y: Buffer): boolean {
  try {
    createPublicKey({ key: { kty: 'EC', crv: jwkCurve, x: x.toString('base64url'), y: y.toString('base64url') }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/** Checks the blob of a key of `type` (the inner type already matched); returns its size in bits. */
function checkBlob(type: SshKeyType, reader: WireReader): number {
  if (type === 'ssh-ed25519') {
    const point = reader.string();
    if (point.length !== 32) throw new Refused(SSH_KEY_MESSAGES.corrupt);
    reader.end();
    if (!isEd25519Point(point)) throw new Refused(SSH_KEY_MESSAGES.badPoint);
    return 256;
  }
  if (type === 'ssh-rsa') {
    const exponent = reader.positiveMpint();
    const modulus = reader.positiveMpint();
    reader.end();
    const exponentValue = BigInt(`0x${exponent.toString('hex')}`);
    if (exponentValue < 3n || exponentValue % 2n === 0n || ((modulus[modulus.length - 1] ?? 0) & 1) === 0) throw new Refused(SSH_KEY_MESSAGES.corrupt);
    const bits = bitLength(modulus);
    if (bits < RSA_MIN_BITS) throw new Refused(SSH_KEY_MESSAGES.rsaTooSmall(bits));
    if (bits > RSA_MAX_BITS) throw new Refused(SSH_KEY_MESSAGES.rsaTooLarge(bits));
    return bits;
  }
  const curve = ECDSA_CURVES[type];
  if (!curve) throw new Refused(SSH_KEY_MESSAGES.unsupportedType(type));
  const curveName = reader.string().toString('latin1');
  if (curveName !== curve.curve) throw new Refused(SSH_KEY_MESSAGES.typeMismatch(type, `ecdsa-sha2-${curveName}`));
  const point = reader.string();
  reader.end();
  // Uncompressed point (SEC 1 §2.3.3): 0x04, then x and y of the curve's size.
  if (point.length !== 1 + 2 * curve.coordinateBytes || point[0] !== 0x04) throw new Refused(SSH_KEY_MESSAGES.corrupt);
  const x = point.subarray(1, 1 + curve.coordinateBytes);
  const y = point.subarray(1 + curve.coordinateBytes);
  if (!isOnCurve(curve.jwkCurve, x, y)) throw new Refused(SSH_KEY_MESSAGES.badPoint);
  return curve.bits;
}

/** `SHA256:…` of a key blob, as `ssh-keygen -l` and sshd's logs print it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

function refuseShape(text: string): void {
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text) || /^PuTTY-User-Key-File-\d+:/m.test(text)) throw new Refused(SSH_KEY_MESSAGES.privateKey);
  if (/^---- BEGIN SSH2 PUBLIC KEY ----/m.test(text)) throw new Refused(SSH_KEY_MESSAGES.ssh2Format);
  if (CONTROL_CHARACTERS.test(text)) throw new Refused(SSH_KEY_MESSAGES.controlCharacters);
  const lines = text.split(/\r?\n|\r/).filter((line) => line.trim() !== '');
  const keyLines = lines.filter((line) => KEY_IN_TEXT.test(line));
  if (keyLines.length > 1) throw new Refused(SSH_KEY_MESSAGES.multipleKeys);
  if (lines.length > 1) throw new Refused(SSH_KEY_MESSAGES.multipleLines);
}

function parse(input: string): OpenSshPublicKey {
  const text = input.trim();
  if (text === '') throw new Refused(SSH_KEY_MESSAGES.empty);
  if (text.length > SSH_PUBLIC_KEY_MAX_LENGTH) throw new Refused(SSH_KEY_MESSAGES.tooLong);
  refuseShape(text);
  const [, declared = '', body, rest = ''] = KEY_LINE.exec(text) ?? [];
  if (!ANY_KEY_TYPE.test(declared)) throw new Refused(KEY_IN_TEXT.test(text) ? SSH_KEY_MESSAGES.options : SSH_KEY_MESSAGES.unknownFormat);
  if (declared === 'ssh-dss') throw new Refused(SSH_KEY_MESSAGES.dsa);
  if (!ACCEPTED.has(declared)) throw new Refused(SSH_KEY_MESSAGES.unsupportedType(declared));
  const type = declared as SshKeyType;
  if (!body) throw new Refused(SSH_KEY_MESSAGES.missingBody);
  const comment = rest.trim();
  if (KEY_IN_TEXT.test(comment)) throw new Refused(SSH_KEY_MESSAGES.multipleKeys);
  if (!BASE64.test(body) || body.length % 4 !== 0) throw new Refused(SSH_KEY_MESSAGES.badBase64);
  const blob = Buffer.from(body, 'base64');
  // Base64 with stray bits in its padding decodes too: only the canonical encoding is the key.
  if (blob.toString('base64') !== body) throw new Refused(SSH_KEY_MESSAGES.badBase64);
  const reader = new WireReader(blob);
  const inner = reader.string().toString('latin1');
  if (inner !== type) throw new Refused(SSH_KEY_MESSAGES.typeMismatch(type, /^[\x21-\x7e]{1,64}$/.test(inner) ? inner : ''));
  const bits = checkBlob(type, reader);
  return { type, bits, comment, line: comment ? `${type} ${body} ${comment}` : `${type} ${body}`, fingerprint: fingerprintOf(blob) };
}

/** Reads one pasted OpenSSH public key: the key, or the Chinese reason it is refused. */
export function parseOpenSshPublicKey(input: string): ParsedPublicKey {
  try {
    return { ok: true, key: parse(input) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    throw error;
  }
}
