import { create } from 'zustand';

export const COLOR_MODE_KEY = 'slg-color-mode';
export const COLOR_MODE_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ColorModePreference = (typeof COLOR_MODE_PREFERENCES)[number];
export type EffectiveColorMode = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function parsePreference(raw: string | null | undefined): ColorModePreference {
  return COLOR_MODE_PREFERENCES.find((mode) => mode === raw) ?? 'system';
}

/**
 * A page may force light or dark. Forcing `system` makes no sense at page level: it warns and is
 * ignored (spec §4).
 */
export function normalizeForcedMode(
  forced: ColorModePreference | null | undefined,
  warn: (message: string) => void = (message) => console.warn(message),
): EffectiveColorMode | null {
  if (!forced) return null;
  if (forced === 'system') {
    warn('[colorMode] 页面级强制颜色模式不能是 "system"，已忽略。');
    return null;
  }
  return forced;
}

export interface ColorModeInputs {
  preference: ColorModePreference;
  systemDark: boolean;
  forced: EffectiveColorMode | null;
}

/** Forced page mode > explicit preference > the OS setting. */
export function resolveColorMode({ preference, systemDark, forced }: ColorModeInputs): EffectiveColorMode {
  if (forced) return forced;
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

type MediaWindow = Pick<Window, 'matchMedia'>;

function mediaQuery(win: MediaWindow | undefined): MediaQueryList | null {
  if (!win || typeof win.matchMedia !== 'function') return null;
  return win.matchMedia(DARK_QUERY);
}

export function readSystemDark(win: MediaWindow | undefined = globalThis.window): boolean {
  return mediaQuery(win)?.matches ?? false;
}

/** Follows `prefers-color-scheme` live; returns the unsubscribe function. */
export function watchSystemColorScheme(
  onChange: (dark: boolean) => void,
  win: MediaWindow | undefined = globalThis.window,
): () => void {
  const query = mediaQuery(win);
  if (!query) return () => undefined;
  const listener = (event: MediaQueryListEvent) => onChange(event.matches);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

function readStoredPreference(): ColorModePreference {
  try {
    return parsePreference(globalThis.localStorage?.getItem(COLOR_MODE_KEY));
  } catch {
    return 'system';
  }
}

function writeStoredPreference(preference: ColorModePreference): void {
  try {
    globalThis.localStorage?.setItem(COLOR_MODE_KEY, preference);
  } catch {
    // Storage unavailable (private mode): the preference lives for this page only.
  }
}

export interface ColorModeState extends ColorModeInputs {
  setPreference(preference: ColorModePreference): void;
  setSystemDark(dark: boolean): void;
  /** Called with the current route's `forceColorMode` (or nothing). */
  forceMode(mode: ColorModePreference | null | undefined): void;
}

export const useColorModeStore = create<ColorModeState>()((set) => ({
  preference: readStoredPreference(),
  systemDark: readSystemDark(),
  forced: null,
  setPreference: (preference) => {
    writeStoredPreference(preference);
    set({ preference });
  },
  setSystemDark: (systemDark) => set({ systemDark }),
  forceMode: (mode) => set({ forced: normalizeForcedMode(mode) }),
}));

export function useEffectiveColorMode(): EffectiveColorMode {
  return useColorModeStore(resolveColorMode);
}
