import { IMAGE_NAME_MAX, IMAGE_NAME_MESSAGE, IMAGE_NAME_PATTERN } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal } from 'antd';
import { claimError } from '../../../../api/client';
import { imageKeys, isImageNameError, renameImage, type PrivateImageView } from '../../../../api/images';
import { toast } from '../../../../api/toast';
import { MIRROR_IMAGE_TEXTS } from '../texts';

const T = MIRROR_IMAGE_TEXTS.rename;

/** Validates an image name by the shared rule (the server applies the same). */
export const imageNameRules = (requiredMessage: string) => [
  { required: true, whitespace: true, message: requiredMessage },
  {
    validator: async (_rule: unknown, value?: string) =>
      !value?.trim() || IMAGE_NAME_PATTERN.test(value.trim()) ? undefined : Promise.reject(new Error(IMAGE_NAME_MESSAGE)),
  },
];

/** 重命名: a duplicate name (40026) shows under the field, once. Mounted while open. */
export function RenameImageDialog({ image, onClose }: { image: PrivateImageView; onClose: () => void }) {
  const [form] = Form.useForm<{ name: string }>();
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: renameImage,
    onSuccess: () => {
      toast.success(T.done);
      void queryClient.invalidateQueries({ queryKey: imageKeys.all });
      onClose();
    },
    onError: (error) => {
      if (isImageNameError(error) && error instanceof Error) {
        claimError(error);
        form.setFields([{ name: 'name', errors: [error.message] }]);
      }
    },
  });
  return (
    <Modal open title={T.title} okText={T.submit} cancelText={T.cancel} confirmLoading={rename.isPending} onOk={() => form.submit()} onCancel={onClose}>
      <Form<{ name: string }>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: image.name }}
        onFinish={(values) => rename.mutate({ imageId: image.imageId, name: values.name.trim() })}
      >
        <Form.Item name="name" label={T.name} extra={T.nameExtra} rules={imageNameRules(T.nameRequired)}>
          <Input maxLength={IMAGE_NAME_MAX} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
