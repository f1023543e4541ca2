/** Paths, names, sizes and the order of entries of 文件存储; pure functions. */
import { FILE_NAME_MAX_BYTES, FILE_STORAGE_GB_BYTES } from '@slg/shared';
import type { StorageEntryView } from '../../../api/storage';
import { FILE_STORAGE_TEXTS } from './texts';

export const ROOT = '/';

/** `/a/b` → ['a', 'b']; `/` → []. */
export function segmentsOf(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** A path from the URL as the API takes it: leading slash, no trailing one, no empty, `.` or `..` segments. */
export function normalizePath(path: string | null | undefined): string {
  const segments = segmentsOf(path ?? '').filter((segment) => segment !== '.' && segment !== '..');
  return `/${segments.join('/')}`;
}

/** The path of an entry of a folder. */
export function joinPath(folder: string, name: string): string {
  return folder === ROOT ? `/${name}` : `${folder}/${name}`;
}

/** Each level of a path, from the root: [{ name: '根目录', path: '/' }, { name: 'a', path: '/a' }, …]. */
export function crumbsOf(path: string, rootName: string): { name: string; path: string }[] {
  const crumbs = [{ name: rootName, path: ROOT }];
  let current = ROOT;
  for (const segment of segmentsOf(path)) {
    current = joinPath(current, segment);
    crumbs.push({ name: segment, path: current });
  }
  return crumbs;
}

const KB = 1024;
const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** 1536 → "1.5 KB"; binary units as `du -h` counts them (1 GB = 1024³ bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} B`;
  let value = bytes / KB;
  let unit = 0;
  while (value >= KB && unit < UNITS.length - 1) {
    value /= KB;
    unit += 1;
  }
  const digits = value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${UNITS[unit]}`;
}

/** Whole gigabytes (a quota): 214748364800 → 200. */
export function bytesToGb(bytes: number): number {
  return bytes / FILE_STORAGE_GB_BYTES;
}

let collator: Intl.Collator | null = null;

/** Folders first, then by name with numbers by value (file2 before file10). */
export function compareEntries(a: StorageEntryView, b: StorageEntryView): number {
  if (a.type !== b.type) return a.type === 'dir' ? -1 : 1;
  collator ??= new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

export function sortEntries(items: readonly StorageEntryView[]): StorageEntryView[] {
  return [...items].sort(compareEntries);
}

/** Bytes of a name in UTF-8 (the file system's limit counts bytes). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a file or folder name is refused, or null. The server applies the same rule (and says why in its answer). */
export function nameProblem(name: string): string | null {
  const T = FILE_STORAGE_TEXTS.name;
  const trimmed = name.trim();
  if (!trimmed) return T.required;
  if (trimmed.includes('/') || trimmed === '.' || trimmed === '..') return T.invalid;
  if (trimmed.includes('\\')) return T.backslash;
  if (CONTROL.test(trimmed)) return T.control;
  if (utf8Length(trimmed) > FILE_NAME_MAX_BYTES) return T.tooLong;
  return null;
}
