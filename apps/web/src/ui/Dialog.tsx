import { useId, type ReactNode } from 'react';
import { Button } from './Button';
import { CloseOutlined } from './icons/CloseOutlined';
import { Overlay } from './Overlay';
import { UI_TEXTS } from './texts';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  /** Closing by the × button, Escape or the mask (when `maskClosable`). */
  onClose: () => void;
  /** The buttons at the bottom. */
  footer?: ReactNode;
  /** Width in px on screens wide enough (default 520, like antd's Modal). */
  width?: number;
  maskClosable?: boolean;
  /** The × in the corner (default true). */
  closable?: boolean;
  /** The body scrolls inside the dialog (long texts) instead of growing the dialog. */
  scrollBody?: boolean;
  children?: ReactNode;
}

/** A modal dialog drawn like antd's Modal; its content exists only while it is open. */
export function Dialog({ open, title, onClose, footer, width = 520, maskClosable = true, closable = true, scrollBody = false, children }: DialogProps) {
  const titleId = useId();
  if (!open) return null;
  return (
    <Overlay labelledBy={titleId} onClose={onClose} maskClosable={maskClosable} panelClassName="slg-dialog" rootClassName="slg-overlay-center">
      <div className="slg-dialog-inner" style={{ width }}>
        <div className="slg-dialog-header">
          <h2 id={titleId} className="slg-dialog-title">
            {title}
          </h2>
          {closable ? (
            <button type="button" className="slg-dialog-close" aria-label={UI_TEXTS.close} data-slg-close onClick={onClose}>
              <CloseOutlined />
            </button>
          ) : null}
        </div>
        <div className={scrollBody ? 'slg-dialog-body slg-dialog-body-scroll' : 'slg-dialog-body'}>{children}</div>
        {footer ? <div className="slg-dialog-footer">{footer}</div> : null}
      </div>
    </Overlay>
  );
}

/** Texts of a confirmation: the buttons name what they do (取消申请 / 再想想), never 确定 / 取消. */
export interface ConfirmTexts {
  title: string;
  confirm: string;
  cancel: string;
}

export interface ConfirmDialogProps extends Omit<DialogProps, 'title' | 'footer'> {
  texts: ConfirmTexts;
  loading: boolean;
  onConfirm: () => void;
  /** The cancel button's action when it differs from closing (e.g. 跳过). */
  onCancel?: () => void;
  confirmDisabled?: boolean;
  danger?: boolean;
}

/** A dialog with a cancel and a confirm button (confirm last, primary). */
export function ConfirmDialog({ texts, loading, onConfirm, onCancel, confirmDisabled = false, danger = false, onClose, ...dialogProps }: ConfirmDialogProps) {
  return (
    <Dialog
      {...dialogProps}
      title={texts.title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onCancel ?? onClose}>{texts.cancel}</Button>
          <Button variant="primary" danger={danger} loading={loading} disabled={confirmDisabled} onClick={onConfirm}>
            {texts.confirm}
          </Button>
        </>
      }
    />
  );
}
