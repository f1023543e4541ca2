import { FILE_NAME_MAX_BYTES } from '@slg/shared';
import { AppError } from '../../core/errors.js';

/**
 * 文件存储 paths as the API takes them (docs/api-storage.md "Paths"): always relative to the store's
 * root, `/` separated; a leading `/` is allowed and means that root, so `/a/b`, `a/b` and `a//b/` are
 * the same file and `` or `/` is the root itself. Parsed here into segments, which only ever name one
 * directory entry each; the filesystem side (tree.ts) then resolves them inside the store and checks
 * where symlinks lead.
 *
 * Refused everywhere: NUL, `.` and `..` segments, lone UTF-16 surrogates, names over 255 bytes of
 * UTF-8 (the Linux NAME_MAX), paths over 4096 bytes. A path that creates something (a folder, an
 * upload, the target of a rename) is held to more: no backslash (a Windows separator, never what the
 * user meant), no control characters, no name of only spaces. Entries made inside instances may carry
 * such names; paths that only address what exists accept them, so they can still be listed,
 * downloaded, renamed and deleted.
 */

export const STORE_PATH_MAX_BYTES = 4096;

export type PathUse = 'existing' | 'create';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A name shortened for a message (a refused name may be 4 KB). */
function shown(name: string): string {
  return name.length > 24 ? `${name.slice(0, 24)}…` : name;
}

/** Why one name cannot be used, or null. */
export function nameProblem(name: string, use: PathUse): string | null {
  if (name.includes('\u0000')) return '名称不能包含空字符（U+0000）';
  if (LONE_SURROGATE.test(name)) return '名称含有无效的字符编码（不成对的代理字符）';
  if (name === '.' || name === '..') return '路径不能包含 . 或 .. ，请使用从存储根目录开始的完整路径';
  if (Buffer.byteLength(name, 'utf8') > FILE_NAME_MAX_BYTES) return `名称「${shown(name)}」过长：最多${FILE_NAME_MAX_BYTES}字节（UTF-8，一个汉字占3字节）`;
  if (use === 'create') {
    if (name.includes('\\')) return '名称不能包含反斜杠（\\），文件夹请用 / 分隔';
    if (CONTROL.test(name)) return '名称不能包含换行、制表符等控制字符';
    if (name.trim() === '') return '名称不能为空或只有空格';
  }
  return null;
}

/** Why a path cannot be used, or null (the check of the route schemas; `parseStorePath` throws the same). */
export function pathProblem(raw: string, use: PathUse): string | null {
  if (Buffer.byteLength(raw, 'utf8') > STORE_PATH_MAX_BYTES) return `路径过长：最多${STORE_PATH_MAX_BYTES}字节`;
  for (const segment of raw.split('/')) {
    if (segment === '') continue;
    const problem = nameProblem(segment, use);
    if (problem) return problem;
  }
  return null;
}

/** The segments of an API path (empty for the root); refuses what `pathProblem` refuses with 400. */
export function parseStorePath(raw: string, use: PathUse): string[] {
  const problem = pathProblem(raw, use);
  if (problem) throw new AppError('VALIDATION', problem);
  return raw.split('/').filter((segment) => segment !== '');
}

/** A path that must name an entry (not the root): its parent's segments and its name. */
export function splitEntryPath(raw: string, use: PathUse, rootMessage: string): { parent: string[]; name: string } {
  const segments = parseStorePath(raw, use);
  const name = segments.pop();
  if (name === undefined) throw new AppError('VALIDATION', rootMessage);
  return { parent: segments, name };
}

/** The API spelling of segments: `/a/b`, `/` for the root. */
export function formatStorePath(segments: readonly string[]): string {
  return `/${segments.join('/')}`;
}
