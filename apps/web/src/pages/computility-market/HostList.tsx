import { FREE_DATA_DISK_GB, formatYuan } from '@slg/shared';
import { Button, Empty, Pagination, Skeleton, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import type { MarketHost } from '../../api/compute';
import { LinkButton } from '../../components/LinkButton';
import { createInstancePath } from '../ctrl-container-instances/paths';
import { StockAlertButton } from './StockAlertDialog';
import { MARKET_TEXTS } from './texts';
import './market.css';

const T = MARKET_TEXTS.hosts;

interface HostListProps {
  hosts: readonly MarketHost[];
  loading: boolean;
  /** The first load has not answered yet. */
  pending: boolean;
  phone: boolean;
  /** GPUs the user asked for (1 when no count is chosen). */
  wantedGpus: number;
  page: number;
  total: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** The empty state (with its call to action). */
  empty: ReactNode;
}

/** A host's price per GPU and period (`¥1.98/卡·时`); `small` in a denser list (克隆实例's hosts). */
export function HostPrice({ host, small = false }: { host: MarketHost; small?: boolean }) {
  return (
    <span className={small ? 'slg-market-price is-small' : 'slg-market-price'}>
      <span className="slg-market-price-value">{formatYuan(host.pricePerGpuFen)}</span>
      <span className="slg-market-price-unit">{T.perGpuUnit(host.unit)}</span>
    </span>
  );
}

function FreeGpus({ host }: { host: MarketHost }) {
  if (host.gpuFree === 0) return <Tag>{T.full}</Tag>;
  return (
    <span className="slg-market-free">
      <strong>{host.gpuFree}</strong> / {host.gpuTotal}
    </span>
  );
}

/** 租用 with the GPUs asked for (at most what is free); off when the host cannot take them, with 到货提醒 under it. */
function RentButton({ host, wantedGpus, block = false }: { host: MarketHost; wantedGpus: number; block?: boolean }) {
  if (host.gpuFree < wantedGpus) {
    return (
      <div className={block ? 'slg-stock-alert-full is-block' : 'slg-stock-alert-full'}>
        <Button disabled block={block}>
          {host.gpuFree === 0 ? T.full : T.notEnough(host.gpuFree)}
        </Button>
        <StockAlertButton
          block={block}
          size={block ? 'middle' : 'small'}
          target={{ zoneId: host.zoneId, zoneName: host.zoneName, gpuModelId: host.gpuModelId, gpuModelName: host.gpuModelName, gpuNum: wantedGpus }}
        />
      </div>
    );
  }
  return (
    <LinkButton
      type="primary"
      block={block}
      aria-label={T.rentLabel(host.hostName)}
      to={createInstancePath({ hostId: host.hostId, gpuNum: wantedGpus, chargingRuleId: host.chargingRuleId })}
    >
      {T.rent}
    </LinkButton>
  );
}

function twoLines(first: ReactNode, second: ReactNode) {
  return (
    <div className="slg-market-cell">
      <span>{first}</span>
      <Typography.Text type="secondary" className="slg-market-cell-sub">
        {second}
      </Typography.Text>
    </div>
  );
}

function columnsFor(wantedGpus: number): TableColumnsType<MarketHost> {
  return [
    { title: T.columns.host, key: 'host', render: (_value, host) => twoLines(<strong>{host.hostName}</strong>, host.zoneName) },
    { title: T.columns.gpu, key: 'gpu', render: (_value, host) => twoLines(host.gpuModelName, T.gpuMemory(host.gpuMemoryGb)) },
    { title: T.columns.free, key: 'free', align: 'center', render: (_value, host) => <FreeGpus host={host} /> },
    { title: T.columns.price, key: 'price', render: (_value, host) => <HostPrice host={host} /> },
    { title: T.columns.cpuMemory, key: 'cpu', render: (_value, host) => twoLines(T.cpuMemory(host.cpuPerGpu, host.memoryGbPerGpu), host.cpuModelName) },
    {
      title: T.columns.disk,
      key: 'disk',
      render: (_value, host) => twoLines(T.diskFree(host.dataDiskFreeGb), T.diskMax(host.dataDiskMaxGb, FREE_DATA_DISK_GB)),
    },
    { title: T.columns.cuda, key: 'cuda', render: (_value, host) => twoLines(T.cuda(host.cudaVersion), T.driver(host.driverVersion)) },
    { title: T.columns.actions, key: 'actions', fixed: 'right', render: (_value, host) => <RentButton host={host} wantedGpus={wantedGpus} /> },
  ];
}

/** A host as a card (phone width): the same facts as a table row, one under the other. */
function HostCard({ host, wantedGpus }: { host: MarketHost; wantedGpus: number }) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: T.columns.gpu, value: `${host.gpuModelName} · ${T.gpuMemory(host.gpuMemoryGb)}` },
    { label: T.columns.free, value: <FreeGpus host={host} /> },
    { label: T.columns.cpuMemory, value: T.cpuMemory(host.cpuPerGpu, host.memoryGbPerGpu) },
    { label: T.columns.disk, value: `${T.diskFree(host.dataDiskFreeGb)}（${T.diskMax(host.dataDiskMaxGb, FREE_DATA_DISK_GB)}）` },
    { label: T.columns.cuda, value: `${T.cuda(host.cudaVersion)} · ${T.driver(host.driverVersion)}` },
  ];
  return (
    <article className="slg-market-card" aria-label={host.hostName}>
      <div className="slg-market-card-head">
        <div className="slg-market-cell">
          <strong>{host.hostName}</strong>
          <Typography.Text type="secondary">{host.zoneName}</Typography.Text>
        </div>
        <HostPrice host={host} />
      </div>
      <dl className="slg-market-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <RentButton host={host} wantedGpus={wantedGpus} block />
    </article>
  );
}

/** The market's hosts: a table, or cards at phone width, with the page control under them. */
export function HostList({ hosts, loading, pending, phone, wantedGpus, page, total, pageSize, onPageChange, empty }: HostListProps) {
  const pagination =
    total > 0 ? (
      <Pagination
        className="slg-market-pagination"
        current={page}
        pageSize={pageSize}
        total={total}
        showSizeChanger={false}
        showTotal={MARKET_TEXTS.total}
        size={phone ? 'small' : undefined}
        onChange={onPageChange}
      />
    ) : null;

  if (phone) {
    if (pending) return <Skeleton active paragraph={{ rows: 6 }} />;
    if (hosts.length === 0) return <>{empty}</>;
    return (
      <>
        <div className="slg-market-cards" aria-busy={loading}>
          {hosts.map((host) => (
            <HostCard key={host.hostId} host={host} wantedGpus={wantedGpus} />
          ))}
        </div>
        {pagination}
      </>
    );
  }

  return (
    <>
      <Table<MarketHost>
        rowKey="hostId"
        columns={columnsFor(wantedGpus)}
        dataSource={[...hosts]}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: pending ? <Skeleton active title={false} paragraph={{ rows: 4 }} /> : empty }}
      />
      {pagination}
    </>
  );
}

export function MarketEmpty({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <Empty description={filtered ? T.emptyFiltered : T.empty}>
      {filtered ? <Button onClick={onClear}>{T.clearFilters}</Button> : null}
    </Empty>
  );
}
