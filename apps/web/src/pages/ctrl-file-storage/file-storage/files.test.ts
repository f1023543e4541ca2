/** Paths, sizes, order and names of 文件存储. */
import { describe, expect, it } from 'vitest';
import { crumbsOf, formatBytes, joinPath, nameProblem, normalizePath, sortEntries } from './files';

const entry = (name: string, type: 'file' | 'dir') => ({ name, type, size: 0, modifiedAt: '2026-06-01T00:00:00Z' });

describe('文件存储 helpers', () => {
  it('normalises paths from the URL and joins names', () => {
    expect(normalizePath(null)).toBe('/');
    expect(normalizePath('a//b/')).toBe('/a/b');
    expect(normalizePath('/a/../b/./c')).toBe('/a/b/c');
    expect(joinPath('/', 'x')).toBe('/x');
    expect(joinPath('/a', 'x')).toBe('/a/x');
    expect(crumbsOf('/a/b', '根目录')).toEqual([
      { name: '根目录', path: '/' },
      { name: 'a', path: '/a' },
      { name: 'b', path: '/a/b' },
    ]);
  });

  it('formats sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5 MB');
    expect(formatBytes(200 * 1024 ** 3)).toBe('200 GB');
    expect(formatBytes(2048 * 1024 ** 3)).toBe('2 TB');
  });

  it('lists folders first, then names with numbers by value', () => {
    const sorted = sortEntries([entry('file10', 'file'), entry('b', 'dir'), entry('file2', 'file'), entry('A', 'dir')]);
    expect(sorted.map((item) => item.name)).toEqual(['A', 'b', 'file2', 'file10']);
  });

  it('refuses names with a slash, dot names and names over 255 bytes', () => {
    expect(nameProblem('  ')).toBe('请输入名称');
    expect(nameProblem('a/b')).not.toBeNull();
    expect(nameProblem('..')).not.toBeNull();
    expect(nameProblem('数'.repeat(85))).toBeNull();
    expect(nameProblem('数'.repeat(86))).toMatch(/255 字节/);
    expect(nameProblem('模型 v2.bin')).toBeNull();
  });
});
