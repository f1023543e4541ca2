/**
 * 挂载数据集 of 创建实例 and 克隆实例: the shared datasets the new machine mounts read-only at
 * /root/slg-pub/<name> (`datasetIds` of the body, ./datasetIds.ts). Public datasets need no choosing:
 * every machine has them.
 */
import { DATASET_MOUNT_ROOT, DATASETS_PER_INSTANCE_MAX } from '@slg/shared';
import { Button, Form, Select, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useMountableDatasetsQuery } from '../../../api/datasets';
import { formatBytes } from '../../ctrl-file-storage/file-storage/files';
import { ORDER_TEXTS } from './texts';

const T = ORDER_TEXTS.datasets;
const SHARED_DATA_PATH = '/ctrl-data-set/data-set/shared-data';

interface DatasetMountFieldProps {
  id: string;
  value: number[];
  onChange: (ids: number[]) => void;
}

/** The optional multi-select of the favourites and the account's approved datasets; two of one name cannot go together. */
export function DatasetMountField({ id, value, onChange }: DatasetMountFieldProps) {
  const datasets = useMountableDatasetsQuery();
  const list = datasets.data;
  // Chosen ones no longer offered (unfavourited, deleted, refused meanwhile) are dropped.
  const known = list ? value.filter((chosen) => list.some((dataset) => dataset.id === chosen)) : value;
  const stale = known.length !== value.length;
  useEffect(() => {
    if (stale) onChange(known);
  }, [stale, known, onChange]);

  let control;
  if (datasets.isPending) {
    control = <Skeleton.Input active size="small" aria-label={T.loading} />;
  } else if (datasets.isError) {
    control = (
      <Typography.Text type="secondary">
        {T.failed}
        <Button type="link" size="small" onClick={() => void datasets.refetch()}>
          {T.reload}
        </Button>
      </Typography.Text>
    );
  } else if (datasets.data.length === 0) {
    control = (
      <Typography.Text type="secondary">
        {T.none} <Link to={SHARED_DATA_PATH}>{T.browse}</Link>
      </Typography.Text>
    );
  } else {
    const chosenNames = new Map(known.map((chosen) => [datasets.data.find((dataset) => dataset.id === chosen)?.name, chosen]));
    control = (
      <Select
        id={id}
        mode="multiple"
        allowClear
        value={known}
        maxCount={DATASETS_PER_INSTANCE_MAX}
        placeholder={T.placeholder(DATASETS_PER_INSTANCE_MAX)}
        optionFilterProp="label"
        onChange={(ids: number[]) => onChange(ids)}
        options={datasets.data.map((dataset) => {
          const holder = chosenNames.get(dataset.name);
          return {
            value: dataset.id,
            label: T.option(dataset.name, formatBytes(dataset.sizeBytes)),
            disabled: holder !== undefined && holder !== dataset.id,
            title: holder !== undefined && holder !== dataset.id ? T.sameName : dataset.description,
          };
        })}
      />
    );
  }

  return (
    <Form.Item
      label={
        <>
          {T.label}
          <Typography.Text type="secondary">{T.optional}</Typography.Text>
        </>
      }
      htmlFor={id}
      extra={T.hint(DATASET_MOUNT_ROOT, DATASETS_PER_INSTANCE_MAX)}
    >
      {control}
    </Form.Item>
  );
}

/** The chosen datasets by name on an order page (their ids while the names load or when one is gone). */
export function DatasetMountSummary({ ids }: { ids: readonly number[] }) {
  const datasets = useMountableDatasetsQuery(ids.length > 0);
  if (datasets.isPending && datasets.fetchStatus !== 'idle') return <Skeleton.Input active size="small" />;
  const names = ids.map((chosen) => datasets.data?.find((dataset) => dataset.id === chosen)?.name ?? T.unknown(chosen));
  return <span>{T.summaryValue(names, DATASET_MOUNT_ROOT)}</span>;
}
