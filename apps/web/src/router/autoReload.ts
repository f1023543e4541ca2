import { AUTO_RELOAD_GUARD_MS } from '@slg/shared';

export const AUTO_RELOAD_KEY = 'slg-auto-reload-at';

const CHUNK_ERROR = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** A route chunk that no longer exists on the server (a new release went out while the tab was open). */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

/** Reload at most once per guard interval (spec §9: auto-reload guard 10 s), so a broken deploy cannot loop. */
export function shouldAutoReload(lastReloadAt: number | null, now: number, guardMs: number = AUTO_RELOAD_GUARD_MS): boolean {
  return lastReloadAt === null || !Number.isFinite(lastReloadAt) || now - lastReloadAt > guardMs;
}

/** Reloads the page for a chunk error when the guard allows; returns whether it did. */
export function tryAutoReload(error: unknown, storage: Pick<Storage, 'getItem' | 'setItem'>, reload: () => void, now: number = Date.now()): boolean {
  if (!isChunkLoadError(error)) return false;
  const raw = storage.getItem(AUTO_RELOAD_KEY);
  const last = raw === null ? null : Number(raw);
  if (!shouldAutoReload(last, now)) return false;
  storage.setItem(AUTO_RELOAD_KEY, String(now));
  reload();
  return true;
}
