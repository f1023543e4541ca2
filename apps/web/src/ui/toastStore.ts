import type { ReactNode } from 'react';

export type ToastType = 'error' | 'success' | 'info' | 'warning';

export interface ToastConfig {
  key: string;
  type: ToastType;
  content: ReactNode;
  /** Seconds on screen; 0 keeps it until it is closed. */
  duration: number;
  onClose?: () => void;
}

export interface ShownToast extends ToastConfig {
  /** Changes when the same key is shown again: its timer starts over. */
  version: number;
}

let toasts: ShownToast[] = [];
let version = 0;
const listeners = new Set<() => void>();

function publish(next: ShownToast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

/**
 * The toasts on screen (antd's `message` look), kept outside React so that any module can show one.
 * The same key replaces the toast shown under it and restarts its timer.
 */
export const toaster = {
  open(config: ToastConfig): void {
    version += 1;
    const shown: ShownToast = { ...config, version };
    const index = toasts.findIndex((toast) => toast.key === config.key);
    publish(index >= 0 ? toasts.map((toast, at) => (at === index ? shown : toast)) : [...toasts, shown]);
  },
  destroy(key: string): void {
    const closing = toasts.find((toast) => toast.key === key);
    if (!closing) return;
    publish(toasts.filter((toast) => toast.key !== key));
    closing.onClose?.();
  },
};

/** For useSyncExternalStore: called whenever the toasts on screen change. */
export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts on screen now (a new array whenever they change). */
export function shownToasts(): readonly ShownToast[] {
  return toasts;
}
