import { imageRunsOnHost } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Checkbox, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { invalidateAfterInstanceChange, useMarketHostQuery, type InstanceView } from '../../../../api/compute';
import {
  imageKeys,
  isImageNameError,
  resetInstanceSystem,
  saveInstanceImage,
  switchInstanceImage,
  useImageUsageQuery,
  usePrivateImagesQuery,
  type PrivateImageView,
} from '../../../../api/images';
import { usePublicImages, type PublicImage } from '../../../../api/meta';
import { claimError } from '../../../../api/client';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { permissionList, useUserStore } from '../../../../stores/user';
import { imageNameRules } from '../../../ctrl-mirror-image/mirrorImage/components/RenameImageDialog';
import { canDo } from '../instanceRules';
import { DialogError, useDialogError } from './billingParts';
import { IMAGE_DIALOG_TEXTS } from './imageTexts';

const T = IMAGE_DIALOG_TEXTS;

export interface ImageDialogProps {
  instance: InstanceView;
  open: boolean;
  onClose: () => void;
}

/** Whether the caller may use private images (a sub-account needs the MIRROR authority); true while not known. */
function useMayUseImages(): boolean {
  const user = useUserStore((state) => state.userInfo);
  return permissionList(user)?.includes('MIRROR') ?? true;
}

interface ImageOption {
  value: string;
  label: string;
  disabled: boolean;
}

function publicOption(image: PublicImage, hostCuda: string | undefined): ImageOption {
  const runs = !hostCuda || imageRunsOnHost(image.cuda, hostCuda);
  return { value: image.id, label: `${image.name}${runs || !hostCuda ? '' : T.change.incompatible(image.cuda, hostCuda)}`, disabled: !runs };
}

function privateOption(image: PrivateImageView, hostCuda: string | undefined): ImageOption {
  const runs = !hostCuda || imageRunsOnHost(image.cuda, hostCuda);
  const from = image.sharedFrom ? T.change.sharedFrom(image.sharedFrom) : '';
  return { value: image.imageId, label: `${image.name}${from}${runs || !hostCuda ? '' : T.change.incompatible(image.cuda, hostCuda)}`, disabled: !runs };
}

/**
 * 更换镜像: public images, my ready private images and those shared with me, the ones the host's
 * driver cannot run disabled (saying why); confirms that the system disk is rebuilt and the data disk kept.
 */
export function ChangeImageDialog({ instance, open, onClose }: ImageDialogProps) {
  const queryClient = useQueryClient();
  const error = useDialogError();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [touched, setTouched] = useState(false);
  const mayUseImages = useMayUseImages();
  const host = useMarketHostQuery(open ? instance.hostId : undefined, instance.chargingRuleId);
  const publicImages = usePublicImages();
  const privateImages = usePrivateImagesQuery(open && mayUseImages);
  const hostCuda = host.data?.cudaVersion;
  const ready = (privateImages.data?.list ?? []).filter((image) => image.status === 'ready');
  const groups = [
    { label: T.change.publicGroup, options: (publicImages.data ?? []).map((image) => publicOption(image, hostCuda)) },
    { label: T.change.mineGroup, options: ready.filter((image) => !image.sharedFrom).map((image) => privateOption(image, hostCuda)) },
    { label: T.change.sharedGroup, options: ready.filter((image) => image.sharedFrom).map((image) => privateOption(image, hostCuda)) },
  ].filter((group) => group.options.length > 0);

  const change = useMutation({
    mutationFn: switchInstanceImage,
    onSuccess: () => {
      toast.success(T.change.done);
      onClose();
    },
    onError: (failure) => error.show(failure),
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  return (
    <ConfirmDialog
      open={open}
      danger
      texts={{ title: T.change.title(instance.name), confirm: T.change.submit, cancel: T.cancel }}
      loading={change.isPending}
      onConfirm={() => {
        error.clear();
        setTouched(true);
        if (chosen) change.mutate({ instanceId: instance.instanceId, imageId: chosen });
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Alert type="warning" showIcon title={T.change.warning} />
        <Typography.Text type="secondary">{T.change.current(instance.imageName)}</Typography.Text>
        <Form layout="vertical" requiredMark={false} component="div">
          <Form.Item
            label={T.change.label}
            htmlFor={`change-image-${instance.instanceId}`}
            validateStatus={touched && !chosen ? 'error' : undefined}
            help={touched && !chosen ? T.change.required : undefined}
            extra={hostCuda ? T.change.hostCuda(hostCuda) : undefined}
          >
            <Select
              id={`change-image-${instance.instanceId}`}
              showSearch={{ optionFilterProp: 'label' }}
              value={chosen}
              onChange={(value: string) => setChosen(value)}
              placeholder={publicImages.isPending ? T.change.loading : T.change.placeholder}
              loading={publicImages.isPending || privateImages.isFetching}
              options={groups}
              popupMatchSelectWidth={false}
              className="slg-image-select"
            />
          </Form.Item>
        </Form>
        {privateImages.isError ? <Alert type="info" showIcon title={T.change.privateFailed} /> : null}
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}

/** 重置系统: names what is lost (the system disk's changes) and what is kept (the data disk), acknowledged first. */
export function ResetSystemDialog({ instance, open, onClose }: ImageDialogProps) {
  const queryClient = useQueryClient();
  const error = useDialogError();
  const [acknowledged, setAcknowledged] = useState(false);
  const reset = useMutation({
    mutationFn: () => resetInstanceSystem(instance.instanceId),
    onSuccess: () => {
      toast.success(T.reset.done);
      onClose();
    },
    onError: (failure) => error.show(failure),
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  return (
    <ConfirmDialog
      open={open}
      danger
      texts={{ title: T.reset.title(instance.name), confirm: T.reset.submit, cancel: T.cancel }}
      loading={reset.isPending}
      okButtonProps={{ disabled: !acknowledged }}
      onConfirm={() => {
        error.clear();
        reset.mutate();
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Typography.Paragraph>{T.reset.body(instance.imageName)}</Typography.Paragraph>
        <Checkbox checked={acknowledged} onChange={(event) => setAcknowledged(event.target.checked)}>
          {T.reset.acknowledge}
        </Checkbox>
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}

/** 保存镜像: a name, what the account's images use of the free quota and what is left; the instance must be off. */
export function SaveImageDialog({ instance, open, onClose }: ImageDialogProps) {
  const queryClient = useQueryClient();
  const error = useDialogError();
  const [form] = Form.useForm<{ name: string }>();
  const usage = useImageUsageQuery(open);
  const off = canDo(instance, 'save_image');
  const full = usage.data ? usage.data.usedGb >= usage.data.quotaGb : false;
  const save = useMutation({
    mutationFn: saveInstanceImage,
    onSuccess: () => {
      toast.success(T.save.done);
      void queryClient.invalidateQueries({ queryKey: imageKeys.all });
      onClose();
    },
    onError: (failure) => {
      if (isImageNameError(failure) && failure instanceof Error) {
        claimError(failure);
        form.setFields([{ name: 'name', errors: [failure.message] }]);
      } else {
        error.show(failure);
      }
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  return (
    <ConfirmDialog
      open={open}
      texts={{ title: T.save.title(instance.name), confirm: T.save.submit, cancel: T.cancel }}
      loading={save.isPending}
      okButtonProps={{ disabled: !off || full }}
      onConfirm={() => {
        error.clear();
        form.submit();
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Typography.Paragraph>{T.save.body}</Typography.Paragraph>
        {!off ? <Alert type="warning" showIcon title={T.save.needsOff} /> : null}
        <Form<{ name: string }>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ name: T.save.defaultName(instance.name) }}
          onFinish={(values) => save.mutate({ instanceId: instance.instanceId, name: values.name.trim() })}
        >
          <Form.Item name="name" label={T.save.name} extra={T.save.nameExtra} rules={imageNameRules(T.save.nameRequired)}>
            <Input autoComplete="off" maxLength={32} />
          </Form.Item>
        </Form>
        {usage.data ? (
          full ? (
            <Alert type="error" showIcon title={T.save.full(usage.data.usedGb, usage.data.quotaGb)} />
          ) : (
            <Typography.Text type="secondary">{T.save.usage(usage.data.usedGb, usage.data.quotaGb, Math.max(0, usage.data.quotaGb - usage.data.usedGb))}</Typography.Text>
          )
        ) : null}
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
