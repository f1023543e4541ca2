import { formatYuan } from '@slg/shared';
import { Card, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useFileStorageChargingRecords, type FileStorageChargingRecord } from '../../../api/chargingRecords';
import { DateTime } from '../../../components/DateTime';
import { Money } from '../../../components/Money';
import { QueryError } from '../../../components/QueryError';
import { CHARGING_RECORD_TEXTS } from './texts';

const T = CHARGING_RECORD_TEXTS.storage;
const STATUS_COLORS: Record<FileStorageChargingRecord['status'], string> = { ACTIVE: 'success', WRITES_BLOCKED: 'error', DELETED: 'default' };

const COLUMNS: TableColumnsType<FileStorageChargingRecord> = [
  { title: T.columns.zone, dataIndex: 'zoneName' },
  {
    title: T.columns.status,
    dataIndex: 'status',
    render: (status: FileStorageChargingRecord['status']) => <Tag color={STATUS_COLORS[status]}>{T.statuses[status]}</Tag>,
  },
  { title: T.columns.used, dataIndex: 'usedBytes', align: 'right', render: (bytes: number) => T.gb(bytes) },
  { title: T.columns.billable, dataIndex: 'billableGb', align: 'right', render: (gb: number) => T.billableGb(gb) },
  { title: T.columns.price, dataIndex: 'priceFenPerGbDay', align: 'right', render: (fen: number) => T.price(formatYuan(fen)) },
  { title: T.columns.rate, dataIndex: 'rateFenPerDay', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.columns.charged, dataIndex: 'chargedFen', align: 'right', render: (fen: number) => <Money fen={fen} strong /> },
  { title: T.columns.billedUntil, dataIndex: 'billedUntil', render: (value: string) => <DateTime value={value} /> },
];

/** 计费记录's 文件存储 part: each region's store (deleted ones too) with its usage and what it has cost. */
export function FileStorageRecords() {
  const query = useFileStorageChargingRecords(true);
  if (query.isError && !query.data) {
    return (
      <Card title={T.title}>
        <QueryError title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  const data = query.data;
  return (
    <Card title={T.title} extra={data ? T.total(formatYuan(data.totalFen)) : null} className="slg-charging-storage">
      <Table<FileStorageChargingRecord>
        rowKey={(record) => `${record.zoneId}:${record.createdAt}`}
        columns={COLUMNS}
        dataSource={data?.list ?? []}
        loading={query.isPending}
        pagination={false}
        size="small"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: T.empty }}
      />
      <Typography.Text type="secondary" className="slg-charging-storage-hint">
        {T.hint}
      </Typography.Text>
    </Card>
  );
}
