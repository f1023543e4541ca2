import { Modal, type ModalProps } from 'antd';
import { useState, type ReactNode } from 'react';

type OwnModalProps = 'title' | 'okText' | 'cancelText' | 'confirmLoading' | 'onOk' | 'destroyOnHidden';

/** The buttons name what they do: 取消申请 / 再想想, never 确定 / 取消. */
export interface ConfirmTexts {
  title: string;
  confirm: string;
  cancel: string;
}

interface ConfirmDialogProps extends Omit<ModalProps, OwnModalProps> {
  texts: ConfirmTexts;
  loading: boolean;
  onConfirm: () => void;
  /** A destructive action (cancel, delete): the confirm button is red. */
  danger?: boolean;
}

/** A dialog with a confirm and a cancel button; its content is destroyed on close. */
export function ConfirmDialog({ texts, loading, onConfirm, danger = false, okButtonProps, children, ...modalProps }: ConfirmDialogProps) {
  return (
    <Modal
      {...modalProps}
      title={texts.title}
      okText={texts.confirm}
      cancelText={texts.cancel}
      okButtonProps={{ ...okButtonProps, danger: danger || okButtonProps?.danger }}
      confirmLoading={loading}
      onOk={onConfirm}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}

interface ConfirmActionProps {
  texts: ConfirmTexts;
  danger?: boolean;
  /** Runs on confirm: the dialog closes when it resolves and stays open when it rejects (the error has its toast). */
  onConfirm: () => Promise<unknown>;
  /** The control that asks, given the function that opens the dialog. */
  trigger: (open: () => void) => ReactNode;
  /** What the dialog says, e.g. what happens to the money. */
  children?: ReactNode;
}

/** An action that asks first, in a ConfirmDialog whose buttons name the action. */
export function ConfirmAction({ texts, danger = false, onConfirm, trigger, children }: ConfirmActionProps) {
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);

  async function confirm() {
    setLoading(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The client showed the error; the dialog stays for another try or 再想想.
    } finally {
      setLoading(false);
    }
  }

  return (
    <>
      {trigger(() => setOpen(true))}
      <ConfirmDialog
        open={open}
        texts={texts}
        danger={danger}
        loading={loading}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}
