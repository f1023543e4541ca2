import { FILE_STORAGE_GB_BYTES, FILE_STORAGE_MAX_QUOTA_GB } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, InputNumber, Modal } from 'antd';
import { claimError, isApiError } from '../../../../api/client';
import { setStorageQuota, storageKeys, type FileStorageView } from '../../../../api/storage';
import { toast } from '../../../../api/toast';
import { bytesToGb, formatBytes } from '../files';
import { FILE_STORAGE_TEXTS } from '../texts';

const T = FILE_STORAGE_TEXTS.quota;

interface QuotaForm {
  quotaGb: number | null;
}

/** Why a quota is refused, or null: a whole number of GB from 1 to 2048, not below what is used. */
export function quotaProblem(value: number | null | undefined, usedBytes: number): string | null {
  if (value === null || value === undefined) return T.required;
  if (!Number.isInteger(value) || value < 1 || value > FILE_STORAGE_MAX_QUOTA_GB) return T.range;
  if (value * FILE_STORAGE_GB_BYTES < usedBytes) return T.belowUsed(formatBytes(usedBytes));
  return null;
}

/** 修改配额 (1–2048 GB). A refusal of the server shows under the field. Mounted while open. */
export function QuotaDialog({ storage, onClose }: { storage: FileStorageView; onClose: () => void }) {
  const [form] = Form.useForm<QuotaForm>();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: setStorageQuota,
    onSuccess: () => {
      toast.success(T.done);
      void queryClient.invalidateQueries({ queryKey: storageKeys.list() });
      onClose();
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 400) {
        claimError(error);
        form.setFields([{ name: 'quotaGb', errors: [error.message] }]);
      }
    },
  });
  return (
    <Modal open title={T.title} okText={T.submit} cancelText={T.cancel} confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose}>
      <Form<QuotaForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ quotaGb: Math.round(bytesToGb(storage.quotaBytes)) }}
        onFinish={(values) => {
          if (values.quotaGb !== null) save.mutate({ zoneId: storage.zoneId, quotaGb: values.quotaGb });
        }}
      >
        {/* No min/max on the input: the field says why 0 or 3000 is refused instead of changing it silently. */}
        <Form.Item
          name="quotaGb"
          label={T.field}
          extra={T.extra(Math.round(bytesToGb(storage.freeBytes)), storage.priceFenPerGbDay)}
          rules={[
            {
              validator: async (_rule: unknown, value: number | null | undefined) => {
                const problem = quotaProblem(value, storage.usedBytes);
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <InputNumber<number> className="slg-fs-quota-input" step={10} precision={0} suffix={T.unit} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
