import { TELEPHONE_MESSAGE, TELEPHONE_PATTERN, normalizeTelephone } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { claimError, isApiError } from '../../../../api/client';
import { imageKeys, shareImage, stopSharingImage, type PrivateImageView } from '../../../../api/images';
import { toast } from '../../../../api/toast';
import { ConfirmAction } from '../../../../components/ConfirmDialog';
import { MIRROR_IMAGE_TEXTS } from '../texts';

const T = MIRROR_IMAGE_TEXTS.share;

/**
 * 分享: a phone number; the server's refusals (not registered 400, oneself 400, already shared 409) are about it
 * and show under the field. With shares in place it also offers 取消全部分享. Mounted while open.
 */
export function ShareImageDialog({ image, onClose }: { image: PrivateImageView; onClose: () => void }) {
  const [form] = Form.useForm<{ telephone: string }>();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: imageKeys.all });
  const share = useMutation({
    mutationFn: shareImage,
    onSuccess: () => {
      toast.success(T.done);
      void refresh();
      onClose();
    },
    onError: (error) => {
      if (isApiError(error) && [400, 409].includes(error.status)) {
        claimError(error);
        form.setFields([{ name: 'telephone', errors: [error.message] }]);
      }
    },
  });
  return (
    <Modal
      open
      title={T.title(image.name)}
      okText={T.submit}
      cancelText={T.cancel}
      confirmLoading={share.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{T.body}</Typography.Paragraph>
      <Form<{ telephone: string }>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => share.mutate({ imageId: image.imageId, telephone: normalizeTelephone(values.telephone) })}
      >
        <Form.Item
          name="telephone"
          label={T.telephone}
          rules={[
            { required: true, whitespace: true, message: T.telephoneRequired },
            {
              validator: async (_rule, value?: string) =>
                !value?.trim() || TELEPHONE_PATTERN.test(normalizeTelephone(value)) ? undefined : Promise.reject(new Error(TELEPHONE_MESSAGE)),
            },
          ]}
        >
          <Input inputMode="tel" placeholder={T.telephonePlaceholder} autoComplete="off" maxLength={20} />
        </Form.Item>
      </Form>
      {image.shareCount > 0 ? (
        <div className="slg-mirror-share-current">
          <Typography.Text>{MIRROR_IMAGE_TEXTS.sharedTo(image.shareCount)}</Typography.Text>
          <ConfirmAction
            danger
            texts={{ title: T.stopTitle(image.name), confirm: T.stopConfirm, cancel: T.stopCancel }}
            onConfirm={async () => {
              const { removed } = await stopSharingImage(image.imageUId);
              toast.success(T.stopped(removed));
              await refresh();
              onClose();
            }}
            trigger={(open) => (
              <Button danger size="small" onClick={open}>
                {T.stop}
              </Button>
            )}
          >
            <Typography.Paragraph>{T.stopBody(image.shareCount)}</Typography.Paragraph>
          </ConfirmAction>
        </div>
      ) : null}
    </Modal>
  );
}
