import { describe, expect, it, vi } from 'vitest';
import { AUTO_RELOAD_KEY, isChunkLoadError, shouldAutoReload, tryAutoReload } from './autoReload';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value) };
}

describe('auto reload after a missing chunk', () => {
  const chunkError = new TypeError('Failed to fetch dynamically imported module: /assets/x.js');

  it('recognises chunk load errors only', () => {
    expect(isChunkLoadError(chunkError)).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads at most once per 10 s', () => {
    expect(shouldAutoReload(null, 50_000)).toBe(true);
    expect(shouldAutoReload(45_000, 50_000)).toBe(false);
    expect(shouldAutoReload(40_000, 50_000)).toBe(false);
    expect(shouldAutoReload(39_999, 50_000)).toBe(true);
  });

  it('records the reload time and refuses a second reload inside the guard', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(tryAutoReload(chunkError, storage, reload, 100_000)).toBe(true);
    expect(storage.getItem(AUTO_RELOAD_KEY)).toBe('100000');
    expect(tryAutoReload(chunkError, storage, reload, 105_000)).toBe(false);
    expect(tryAutoReload(new Error('other'), storage, reload, 200_000)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
