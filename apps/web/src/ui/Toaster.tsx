import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CheckCircleFilled } from './icons/CheckCircleFilled';
import { CloseCircleFilled } from './icons/CloseCircleFilled';
import { ExclamationCircleFilled } from './icons/ExclamationCircleFilled';
import { InfoCircleFilled } from './icons/InfoCircleFilled';
import { shownToasts, subscribe, toaster, type ShownToast, type ToastType } from './toastStore';

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

/**
 * Where the toasts appear: top centre, `top` px from the edge. Loaded and mounted by the app's root
 * (theme/AppProviders.tsx) when the first toast opens, so no page's first load carries it.
 */
export default function Toaster({ top }: { top: number }) {
  const shown = useSyncExternalStore(subscribe, shownToasts, shownToasts);
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
