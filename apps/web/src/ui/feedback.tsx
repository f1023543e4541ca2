import type { ReactNode } from 'react';
import { CheckCircleFilled } from './icons/CheckCircleFilled';
import { CloseCircleFilled } from './icons/CloseCircleFilled';
import { ExclamationCircleFilled } from './icons/ExclamationCircleFilled';
import { InfoCircleFilled } from './icons/InfoCircleFilled';

/** A small spinning ring (CSS only), e.g. while a value loads; `label` says what loads. */
export function Spinner({ label, size = 'small' }: { label?: string; size?: 'small' | 'large' }) {
  return <span className={`slg-spinner slg-spinner-${size}`} role={label ? 'status' : undefined} aria-label={label} aria-hidden={label ? undefined : true} />;
}

export type AlertType = 'success' | 'info' | 'warning' | 'error';

const ALERT_ICONS: Record<AlertType, ReactNode> = {
  success: <CheckCircleFilled />,
  info: <InfoCircleFilled />,
  warning: <ExclamationCircleFilled />,
  error: <CloseCircleFilled />,
};

/** A message box in antd's Alert look: icon, title, optional description and action. */
export function Alert({ type, title, description, action, className }: { type: AlertType; title: ReactNode; description?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={['slg-alert', `slg-alert-${type}`, description ? 'slg-alert-with-description' : '', className ?? ''].filter(Boolean).join(' ')} role={type === 'error' || type === 'warning' ? 'alert' : 'status'}>
      <span className="slg-alert-icon">{ALERT_ICONS[type]}</span>
      <div className="slg-alert-content">
        <div className="slg-alert-title">{title}</div>
        {description ? <div className="slg-alert-description">{description}</div> : null}
      </div>
      {action ? <div className="slg-alert-action">{action}</div> : null}
    </div>
  );
}

export type TagColor = 'blue' | 'purple' | 'green' | 'orange' | 'default';

/** A small label in antd's Tag look. */
export function Tag({ color = 'default', children }: { color?: TagColor; children: ReactNode }) {
  return <span className={`slg-tag slg-tag-${color}`}>{children}</span>;
}

/** Grey bars in place of text that is loading (antd's Skeleton look); hidden from assistive technology. */
export function Skeleton({ rows = 3, title = true }: { rows?: number; title?: boolean }) {
  return (
    <div className="slg-skeleton" aria-hidden="true">
      {title ? <span className="slg-skeleton-title" /> : null}
      {Array.from({ length: rows }, (_, index) => (
        <span key={index} className="slg-skeleton-line" />
      ))}
    </div>
  );
}
