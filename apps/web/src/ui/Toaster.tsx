import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CheckCircleFilled } from './icons/CheckCircleFilled';
import { CloseCircleFilled } from './icons/CloseCircleFilled';
import { ExclamationCircleFilled } from './icons/ExclamationCircleFilled';
import { InfoCircleFilled } from './icons/InfoCircleFilled';

export type ToastType = 'error' | 'success' | 'info' | 'warning';

export interface ToastConfig {
  key: string;
  type: ToastType;
  content: ReactNode;
  /** Seconds on screen; 0 keeps it until it is closed. */
  duration: number;
  onClose?: () => void;
}

interface ShownToast extends ToastConfig {
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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const ICONS: Record<ToastType, ReactNode> = {
  success: <CheckCircleFilled className="slg-toast-icon slg-toast-icon-success" />,
  error: <CloseCircleFilled className="slg-toast-icon slg-toast-icon-error" />,
  info: <InfoCircleFilled className="slg-toast-icon slg-toast-icon-info" />,
  warning: <ExclamationCircleFilled className="slg-toast-icon slg-toast-icon-warning" />,
};

function Toast({ toast }: { toast: ShownToast }) {
  const { key, duration, version: shownVersion } = toast;
  useEffect(() => {
    if (duration <= 0) return undefined;
    const timer = setTimeout(() => toaster.destroy(key), duration * 1000);
    return () => clearTimeout(timer);
  }, [key, duration, shownVersion]);
  return (
    <div className="slg-toast" role={toast.type === 'error' ? 'alert' : 'status'}>
      {ICONS[toast.type]}
      <span>{toast.content}</span>
    </div>
  );
}

/** Where the toasts appear: top centre, `top` px from the edge. Mounted once, by the app's root. */
export function Toaster({ top }: { top: number }) {
  const shown = useSyncExternalStore(subscribe, () => toasts, () => toasts);
  if (typeof document === 'undefined') return null;
  return createPortal(
    <div className="slg-toaster" style={{ top }} aria-live="polite">
      {shown.map((toast) => (
        <Toast key={toast.key} toast={toast} />
      ))}
    </div>,
    document.body,
  );
}
