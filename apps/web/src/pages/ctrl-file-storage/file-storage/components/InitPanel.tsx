import { DatabaseOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FILE_STORAGE_FREE_GB, FILE_STORAGE_MOUNT } from '@slg/shared';
import { Button, Typography } from 'antd';
import { initStorage, storageKeys, type FileStorageView } from '../../../../api/storage';
import { toast } from '../../../../api/toast';
import { bytesToGb } from '../files';
import { FILE_STORAGE_TEXTS } from '../texts';

const T = FILE_STORAGE_TEXTS.init;

/** A region without a store: what it is and costs, and 免费初始化. */
export function InitPanel({ storage, zoneName }: { storage: FileStorageView; zoneName: string }) {
  const queryClient = useQueryClient();
  const init = useMutation({
    mutationFn: initStorage,
    onSuccess: async () => {
      toast.success(T.done);
      await queryClient.invalidateQueries({ queryKey: storageKeys.list() });
    },
  });
  // The free amount and the mount are the same everywhere; the server's figures win when it sends them.
  const freeGb = storage.freeBytes > 0 ? Math.round(bytesToGb(storage.freeBytes)) : FILE_STORAGE_FREE_GB;
  return (
    <section className="slg-fs-init" aria-label={T.title(zoneName)}>
      <DatabaseOutlined className="slg-fs-init-icon" aria-hidden />
      <Typography.Title level={2} className="slg-fs-init-title">
        {T.title(zoneName)}
      </Typography.Title>
      <ul className="slg-fs-init-points">
        {T.points(freeGb, storage.priceFenPerGbDay, storage.mountPath || FILE_STORAGE_MOUNT).map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
      <Button type="primary" size="large" loading={init.isPending} onClick={() => init.mutate(storage.zoneId)}>
        {T.action}
      </Button>
      <Typography.Text type="secondary" className="slg-fs-note">
        {T.free}
      </Typography.Text>
    </section>
  );
}
