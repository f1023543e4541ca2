import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal } from 'antd';
import { claimError } from '../../../../api/client';
import { isEntryNameError } from '../../../../api/storage';
import { toast } from '../../../../api/toast';
import { nameProblem } from '../files';

export interface NameDialogTexts {
  title: string;
  field: string;
  submit: string;
  cancel: string;
  done: string;
  placeholder?: string;
}

interface NameDialogProps {
  texts: NameDialogTexts;
  /** The current name (重命名); empty for a new folder. */
  initialName?: string;
  /** Refuses the unchanged name with this message (重命名). */
  sameMessage?: string;
  /** Sends the name; the dialog closes when it resolves. */
  submit: (name: string) => Promise<unknown>;
  /** After a success (refresh the listing). */
  onDone: () => void;
  onClose: () => void;
}

/** 新建文件夹 / 重命名: one name field checked as the server checks it; a refused name shows under it. Mounted while open. */
export function NameDialog({ texts, initialName = '', sameMessage, submit, onDone, onClose }: NameDialogProps) {
  const [form] = Form.useForm<{ name: string }>();
  const save = useMutation({
    mutationFn: submit,
    onSuccess: () => {
      toast.success(texts.done);
      onDone();
      onClose();
    },
    onError: (error) => {
      if (isEntryNameError(error) && error instanceof Error) {
        claimError(error);
        form.setFields([{ name: 'name', errors: [error.message] }]);
      }
    },
  });
  return (
    <Modal open title={texts.title} okText={texts.submit} cancelText={texts.cancel} confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose}>
      <Form<{ name: string }>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: initialName }}
        onFinish={(values) => save.mutate(values.name.trim())}
      >
        <Form.Item
          name="name"
          label={texts.field}
          rules={[
            {
              validator: async (_rule: unknown, value: string | undefined) => {
                const problem = nameProblem(value ?? '');
                if (problem) throw new Error(problem);
                if (sameMessage && value?.trim() === initialName) throw new Error(sameMessage);
              },
            },
          ]}
        >
          <Input autoComplete="off" placeholder={texts.placeholder} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
