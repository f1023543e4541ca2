import { Modal, type ModalProps } from 'antd';

type OwnModalProps = 'title' | 'okText' | 'cancelText' | 'confirmLoading' | 'onOk' | 'destroyOnHidden';

interface ConfirmDialogProps extends Omit<ModalProps, OwnModalProps> {
  texts: { title: string; confirm: string; cancel: string };
  loading: boolean;
  onConfirm: () => void;
}

/** A dialog with a confirm and a cancel button; its content is destroyed on close. */
export function ConfirmDialog({ texts, loading, onConfirm, children, ...modalProps }: ConfirmDialogProps) {
  return (
    <Modal
      {...modalProps}
      title={texts.title}
      okText={texts.confirm}
      cancelText={texts.cancel}
      confirmLoading={loading}
      onOk={onConfirm}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}
