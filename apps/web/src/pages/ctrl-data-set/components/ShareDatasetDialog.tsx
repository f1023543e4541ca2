import { FolderOpenOutlined } from '@ant-design/icons';
import {
  DATASET_DESCRIPTION_MAX,
  DATASET_LICENSES,
  DATASET_NAME_MESSAGE,
  DATASET_NAME_PATTERN,
  DATASET_TAG_MAX,
  DATASET_TAGS_MAX,
  datasetMountPath,
} from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Modal, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { claimError, isApiError } from '../../../api/client';
import {
  createDataset,
  invalidateDatasets,
  isDatasetNameError,
  updateDataset,
  type CreateDatasetBody,
  type DatasetView,
  type UpdateDatasetBody,
} from '../../../api/datasets';
import { useZones } from '../../../api/meta';
import { useStorageListQuery } from '../../../api/storage';
import { toast } from '../../../api/toast';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LinkButton } from '../../../components/LinkButton';
import { QueryError } from '../../../components/QueryError';
import { normalizePath, segmentsOf } from '../../ctrl-file-storage/file-storage/files';
import { DATA_SET_PATHS, DATA_SET_TEXTS } from '../texts';
import { FolderPicker } from './FolderPicker';

const T = DATA_SET_TEXTS.share;

interface ShareValues {
  name: string;
  description: string;
  zoneId: string | undefined;
  path: string;
  tags: string[];
  license: string | undefined;
  /** 编辑: the folder is snapshotted again. */
  resnapshot: boolean;
}

export type ShareDatasetDialogProps =
  | {
      /** 共享: a new dataset, optionally from this region and folder (the 共享 of a folder in 文件存储). */
      dataset?: undefined;
      zoneId?: string | undefined;
      path?: string | undefined;
      onClose: () => void;
      /** After a success (e.g. show 我的共享). */
      onDone?: () => void;
    }
  | {
      /** 编辑 of one of the account's datasets. */
      dataset: DatasetView;
      onClose: () => void;
      onDone?: () => void;
    };

/** The last segment of a folder when it is a valid dataset name (a good default for the name). */
function nameFromPath(path: string | undefined): string {
  const last = segmentsOf(path ?? '').at(-1) ?? '';
  return DATASET_NAME_PATTERN.test(last) ? last : '';
}

const LICENSE_OPTIONS = DATASET_LICENSES.map((license) => ({ value: license, label: license }));

/** The body of 共享 or 编辑: trimmed, the optional fields only when they say something. */
function bodyOf(values: ShareValues, editing: boolean): CreateDatasetBody | UpdateDatasetBody {
  const tags = values.tags.map((tag) => tag.trim()).filter(Boolean);
  const base = {
    name: values.name.trim(),
    description: values.description.trim(),
    ...(tags.length > 0 || editing ? { tags } : {}),
    ...(values.license ? { license: values.license } : {}),
  };
  if (editing && !values.resnapshot) return base;
  return { ...base, zoneId: values.zoneId, path: normalizePath(values.path) };
}

/**
 * 共享数据集 / 编辑: name (the folder's name in instances), description, the region and folder of the
 * 文件存储 to snapshot, tags and licence. A new one goes to review; an edit sends it back to review,
 * which the dialog asks to confirm. Mounted while open.
 */
export function ShareDatasetDialog(props: ShareDatasetDialogProps) {
  const { dataset, onClose, onDone } = props;
  const editing = dataset !== undefined;
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ShareValues>();
  const zones = useZones();
  const stores = useStorageListQuery();
  const [picking, setPicking] = useState(false);
  const [confirming, setConfirming] = useState<ShareValues | null>(null);
  const name = Form.useWatch('name', form) ?? '';
  const zoneId = Form.useWatch('zoneId', form);
  const path = Form.useWatch('path', form);
  const resnapshot = Form.useWatch('resnapshot', form) ?? false;

  const initialized = (stores.data ?? []).filter((store) => store.initialized);
  const zoneName = (id: string) => zones.data?.find((zone) => zone.id === id)?.name ?? id;
  const zoneOptions = initialized.map((store) => ({ value: store.zoneId, label: zoneName(store.zoneId) }));
  const folderFields = !editing || resnapshot;

  const save = useMutation({
    mutationFn: (values: ShareValues) =>
      editing ? updateDataset(dataset.id, bodyOf(values, true)) : createDataset(bodyOf(values, false) as CreateDatasetBody),
    onSuccess: async () => {
      toast.success(editing ? T.saved : T.done);
      onClose();
      onDone?.();
      await invalidateDatasets(queryClient);
    },
    onError: (error, values) => {
      setConfirming(null);
      if (isDatasetNameError(error) && error instanceof Error) {
        claimError(error);
        form.setFields([{ name: 'name', errors: [error.message] }]);
      } else if (isApiError(error) && (error.status === 409 || error.status === 404) && (!editing || values.resnapshot)) {
        // The folder is missing, not a folder, or too big to share.
        claimError(error);
        form.setFields([{ name: 'path', errors: [error.message] }]);
      }
    },
  });

  function submit(values: ShareValues) {
    if (editing) setConfirming(values);
    else save.mutate(values);
  }

  const initialValues: ShareValues = editing
    ? {
        name: dataset.name,
        description: dataset.description,
        zoneId: dataset.zoneId ?? undefined,
        path: dataset.sourcePath ?? '',
        tags: dataset.tags,
        license: dataset.license ?? undefined,
        resnapshot: false,
      }
    : {
        name: nameFromPath(props.path),
        description: '',
        zoneId: initialized.find((store) => store.zoneId === props.zoneId)?.zoneId ?? initialized[0]?.zoneId,
        path: props.path ?? '',
        tags: [],
        license: undefined,
        resnapshot: false,
      };

  let body;
  if (!editing && stores.isError && !stores.data) {
    body = <QueryError title={T.storesFailed} error={stores.error} onRetry={() => void stores.refetch()} />;
  } else if (!editing && stores.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} />;
  } else if (!editing && initialized.length === 0) {
    body = (
      <Alert
        type="info"
        showIcon
        title={T.noStore}
        action={
          <LinkButton size="small" to={DATA_SET_PATHS.fileStorage}>
            {T.toFileStorage}
          </LinkButton>
        }
      />
    );
  } else {
    body = (
      <Form<ShareValues> form={form} layout="vertical" requiredMark={false} initialValues={initialValues} onFinish={submit}>
        <Form.Item
          name="name"
          label={T.name}
          extra={T.nameExtra(datasetMountPath(name.trim() || '<名称>'))}
          rules={[
            {
              validator: async (_rule: unknown, value: string | undefined) => {
                const trimmed = value?.trim() ?? '';
                if (!trimmed) throw new Error(T.nameRequired);
                if (!DATASET_NAME_PATTERN.test(trimmed)) throw new Error(DATASET_NAME_MESSAGE);
              },
            },
          ]}
        >
          <Input autoComplete="off" maxLength={64} showCount placeholder={T.namePlaceholder} />
        </Form.Item>
        <Form.Item name="description" label={T.description} rules={[{ required: true, whitespace: true, message: T.descriptionRequired }]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={DATASET_DESCRIPTION_MAX} showCount placeholder={T.descriptionPlaceholder} />
        </Form.Item>
        {editing ? (
          <Form.Item name="resnapshot" valuePropName="checked" extra={resnapshot ? undefined : T.resnapshotHint}>
            <Checkbox>{T.resnapshot}</Checkbox>
          </Form.Item>
        ) : null}
        {folderFields ? (
          <>
            <Form.Item name="zoneId" label={T.zone} rules={[{ required: true, message: T.zoneRequired }]}>
              <Select
                placeholder={T.zonePlaceholder}
                options={zoneOptions}
                loading={stores.isPending}
                onChange={() => form.setFieldValue('path', '')}
              />
            </Form.Item>
            <Form.Item label={T.path} required extra={T.pathExtra}>
              <Space.Compact block>
                <Form.Item
                  name="path"
                  noStyle
                  rules={[
                    { required: true, whitespace: true, message: T.pathRequired },
                    {
                      validator: async (_rule: unknown, value: string | undefined) => {
                        if (value?.trim() && !value.trim().startsWith('/')) throw new Error(T.pathInvalid);
                      },
                    },
                  ]}
                >
                  <Input aria-label={T.path} autoComplete="off" placeholder={T.pathPlaceholder} />
                </Form.Item>
                <Button icon={<FolderOpenOutlined />} disabled={!zoneId} aria-expanded={picking} onClick={() => setPicking((open) => !open)}>
                  {picking ? T.pickHide : T.pick}
                </Button>
              </Space.Compact>
            </Form.Item>
            {picking && zoneId ? (
              <FolderPicker
                key={zoneId}
                zoneId={zoneId}
                value={path ? normalizePath(path) : undefined}
                onChange={(picked) => {
                  form.setFieldValue('path', picked);
                  const named = !editing && !form.getFieldValue('name')?.trim() && nameFromPath(picked);
                  if (named) form.setFieldValue('name', named);
                  void form.validateFields(named ? ['path', 'name'] : ['path']).catch(() => undefined);
                }}
              />
            ) : null}
          </>
        ) : null}
        <Form.Item
          name="tags"
          label={T.tags}
          rules={[
            {
              validator: async (_rule: unknown, value: string[] | undefined) => {
                const tags = value ?? [];
                if (tags.length > DATASET_TAGS_MAX) throw new Error(T.tagsMax);
                if (tags.some((tag) => tag.trim().length > DATASET_TAG_MAX)) throw new Error(T.tagTooLong);
              },
            },
          ]}
        >
          <Select mode="tags" aria-label={T.tags} placeholder={T.tagsPlaceholder} tokenSeparators={[',', '，']} maxCount={DATASET_TAGS_MAX} suffixIcon={null} notFoundContent={null} />
        </Form.Item>
        <Form.Item name="license" label={T.license}>
          <Select aria-label={T.license} allowClear placeholder={T.licensePlaceholder} options={LICENSE_OPTIONS} />
        </Form.Item>
        <Typography.Paragraph type="secondary" className="slg-ds-note">
          {T.limits}
        </Typography.Paragraph>
      </Form>
    );
  }

  const ready = editing || initialized.length > 0;
  return (
    <>
      <Modal
        open
        title={editing ? T.editTitle(dataset.name) : T.title}
        okText={editing ? T.save : T.submit}
        cancelText={T.cancel}
        okButtonProps={{ disabled: !ready }}
        confirmLoading={save.isPending && !confirming}
        onOk={() => form.submit()}
        onCancel={onClose}
        width={600}
        destroyOnHidden
      >
        {body}
      </Modal>
      {editing ? (
        <ConfirmDialog
          open={confirming !== null}
          texts={T.confirm}
          loading={save.isPending}
          onConfirm={() => confirming && save.mutate(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <Typography.Paragraph>{T.confirm.body(confirming?.name.trim() || dataset.name)}</Typography.Paragraph>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
