import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COLOR_MODE_KEY,
  normalizeForcedMode,
  parsePreference,
  readSystemDark,
  resolveColorMode,
  useColorModeStore,
  watchSystemColorScheme,
} from './colorMode';

function fakeMedia(initial: boolean) {
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const query = {
    matches: initial,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
  };
  const win = { matchMedia: vi.fn(() => query as unknown as MediaQueryList) };
  return {
    win,
    listeners,
    change(dark: boolean) {
      query.matches = dark;
      for (const listener of listeners) listener({ matches: dark } as MediaQueryListEvent);
    },
  };
}

describe('resolveColorMode', () => {
  it('follows the OS when the preference is system', () => {
    expect(resolveColorMode({ preference: 'system', systemDark: true, forced: null })).toBe('dark');
    expect(resolveColorMode({ preference: 'system', systemDark: false, forced: null })).toBe('light');
  });

  it('uses an explicit preference whatever the OS says', () => {
    expect(resolveColorMode({ preference: 'light', systemDark: true, forced: null })).toBe('light');
    expect(resolveColorMode({ preference: 'dark', systemDark: false, forced: null })).toBe('dark');
  });

  it('lets a page-level forced mode override everything', () => {
    expect(resolveColorMode({ preference: 'light', systemDark: false, forced: 'dark' })).toBe('dark');
    expect(resolveColorMode({ preference: 'system', systemDark: true, forced: 'light' })).toBe('light');
  });
});

describe('normalizeForcedMode', () => {
  it('keeps light and dark', () => {
    const warn = vi.fn();
    expect(normalizeForcedMode('dark', warn)).toBe('dark');
    expect(normalizeForcedMode('light', warn)).toBe('light');
    expect(normalizeForcedMode(undefined, warn)).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns about and ignores a forced system mode', () => {
    const warn = vi.fn();
    expect(normalizeForcedMode('system', warn)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('warns through console.warn by default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    useColorModeStore.getState().forceMode('system');
    expect(useColorModeStore.getState().forced).toBeNull();
    expect(warn).toHaveBeenCalled();
  });
});

describe('parsePreference', () => {
  it('accepts the three preferences and defaults to system', () => {
    expect(parsePreference('dark')).toBe('dark');
    expect(parsePreference('light')).toBe('light');
    expect(parsePreference('system')).toBe('system');
    expect(parsePreference('purple')).toBe('system');
    expect(parsePreference(null)).toBe('system');
  });
});

describe('system colour scheme', () => {
  it('reads and follows prefers-color-scheme live', () => {
    const media = fakeMedia(false);
    expect(readSystemDark(media.win)).toBe(false);
    const seen: boolean[] = [];
    const stop = watchSystemColorScheme((dark) => seen.push(dark), media.win);
    media.change(true);
    media.change(false);
    expect(seen).toEqual([true, false]);
    stop();
    expect(media.listeners.size).toBe(0);
    media.change(true);
    expect(seen).toEqual([true, false]);
  });

  it('copes with a window without matchMedia', () => {
    const win = {} as Pick<Window, 'matchMedia'>;
    expect(readSystemDark(win)).toBe(false);
    expect(() => watchSystemColorScheme(() => undefined, win)()).not.toThrow();
  });
});

describe('store', () => {
  beforeEach(() => {
    localStorage.clear();
    useColorModeStore.setState({ preference: 'system', systemDark: false, forced: null });
  });
  afterEach(() => localStorage.clear());

  it('saves the preference in localStorage under slg-color-mode', () => {
    useColorModeStore.getState().setPreference('dark');
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');
    expect(resolveColorMode(useColorModeStore.getState())).toBe('dark');
  });

  it('resolves system through the OS flag and a forced page mode above it', () => {
    useColorModeStore.getState().setSystemDark(true);
    expect(resolveColorMode(useColorModeStore.getState())).toBe('dark');
    useColorModeStore.getState().forceMode('light');
    expect(resolveColorMode(useColorModeStore.getState())).toBe('light');
    useColorModeStore.getState().forceMode(undefined);
    expect(resolveColorMode(useColorModeStore.getState())).toBe('dark');
  });
});
