import { useId, type ReactNode } from 'react';
import { CloseOutlined } from './icons/CloseOutlined';
import { Overlay } from './Overlay';

export interface DrawerProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  /** Name of the × button. */
  closeLabel: string;
  footer?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A modal panel sliding in from the left edge (antd's Drawer look), e.g. the console menu on a phone. */
export function Drawer({ open, title, onClose, closeLabel, footer, className, children }: DrawerProps) {
  const titleId = useId();
  if (!open) return null;
  return (
    <Overlay labelledBy={titleId} onClose={onClose} panelClassName={['slg-drawer', className ?? ''].filter(Boolean).join(' ')}>
      <div className="slg-drawer-header">
        <div id={titleId} className="slg-drawer-title">
          {title}
        </div>
        <button type="button" className="slg-dialog-close" aria-label={closeLabel} data-slg-close onClick={onClose}>
          <CloseOutlined />
        </button>
      </div>
      <div className="slg-drawer-body">{children}</div>
      {footer ? <div className="slg-drawer-footer">{footer}</div> : null}
    </Overlay>
  );
}
