import { TOAST_DURATION_MS, TOAST_OFFSET_PX } from '@slg/shared';
import { toaster, type ToastConfig } from '../ui/toastStore';

/** Toast options of spec §9: 3000 ms, 16 px from the top (the duration in seconds). */
export const TOAST_CONFIG = { duration: TOAST_DURATION_MS / 1000, top: TOAST_OFFSET_PX } as const;

/** What the toasts need of a toast host: show one under a key, close one by key. */
export interface ToastApi {
  open(config: ToastConfig): void;
  destroy(key: string): void;
}
export type ToastKind = 'error' | 'success' | 'info' | 'warning';

let instance: ToastApi = toaster;

/**
 * The host the toasts go to: ui/Toaster (mounted by the app's root) unless a test puts its own here.
 * It needs no antd, so the public and sign-in pages show toasts without loading antd.
 */
export function setToastInstance(next: ToastApi): void {
  instance = next;
}

/** Keys of the toasts on screen. Identical toasts share a key, so antd shows one and restarts its timer. */
const openKeys = new Set<string>();
/** Keys shown during the current task; they travel with a navigation started in the same task. */
const freshKeys = new Set<string>();
let freshClearScheduled = false;

function keyOf(kind: ToastKind, text: string): string {
  return `slg-toast:${kind}:${text}`;
}

function markFresh(key: string): void {
  freshKeys.add(key);
  if (freshClearScheduled) return;
  freshClearScheduled = true;
  setTimeout(() => {
    freshKeys.clear();
    freshClearScheduled = false;
  }, 0);
}

function show(kind: ToastKind, text: string): void {
  const key = keyOf(kind, text);
  openKeys.add(key);
  markFresh(key);
  instance.open({
    key,
    type: kind,
    content: text,
    duration: TOAST_CONFIG.duration,
    onClose: () => {
      openKeys.delete(key);
    },
  });
}

function close(key: string): void {
  openKeys.delete(key);
  freshKeys.delete(key);
  instance.destroy(key);
}

export const toast = {
  error(text: string): void {
    show('error', text);
  },
  success(text: string): void {
    show('success', text);
  },
  info(text: string): void {
    show('info', text);
  },
  warning(text: string): void {
    show('warning', text);
  },
  /** Closes the toast of this kind and text, e.g. when the page now shows that error in place. */
  dismiss(kind: ToastKind, text: string): void {
    const key = keyOf(kind, text);
    if (openKeys.has(key)) close(key);
  },
};

/**
 * Leaving a page: closes its toasts. Toasts shown in the current task stay, since they belong to the
 * navigation that starts now (登录成功 before going on, 登录状态已过期 before the redirect to /login).
 */
export function dismissStaleToasts(): void {
  for (const key of [...openKeys]) {
    if (!freshKeys.has(key)) close(key);
  }
}

/** The keys of the toasts on screen (for tests). */
export function openToastKeys(): string[] {
  return [...openKeys];
}
