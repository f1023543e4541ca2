import { HostPrice } from '../../computility-market/HostList';
import { Pagination, Radio, Skeleton, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import type { MarketHost } from '../../../api/compute';
import { CLONE_PAGE_TEXTS } from './texts';

const T = CLONE_PAGE_TEXTS.target;

/** What the list says of a host: whether it can be chosen (and why not), and what happens to the data disk there. */
export interface HostVerdict {
  blocker: string | null;
  disk: { text: string; color: 'success' | 'warning' | 'default' };
  isSourceHost: boolean;
}

interface TargetHostListProps {
  hosts: readonly MarketHost[];
  verdictOf: (host: MarketHost) => HostVerdict;
  chosenHostId: string | undefined;
  onChoose: (host: MarketHost) => void;
  loading: boolean;
  /** The first load has not answered yet. */
  pending: boolean;
  phone: boolean;
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  empty: ReactNode;
}

function twoLines(first: ReactNode, second: ReactNode) {
  return (
    <div className="slg-clone-cell">
      <span>{first}</span>
      <Typography.Text type="secondary" className="slg-clone-cell-sub">
        {second}
      </Typography.Text>
    </div>
  );
}

function HostName({ host, verdict }: { host: MarketHost; verdict: HostVerdict }) {
  return twoLines(<strong>{host.hostName}</strong>, verdict.isSourceHost ? `${host.zoneName} · ${T.sourceHost}` : host.zoneName);
}

function State({ verdict }: { verdict: HostVerdict }) {
  return verdict.blocker ? (
    <Typography.Text type="warning" className="slg-clone-state">
      {verdict.blocker}
    </Typography.Text>
  ) : (
    <Typography.Text type="success">{T.available}</Typography.Text>
  );
}

function columnsFor(verdictOf: (host: MarketHost) => HostVerdict): TableColumnsType<MarketHost> {
  return [
    { title: T.columns.host, key: 'host', render: (_value, host) => <HostName host={host} verdict={verdictOf(host)} /> },
    { title: T.columns.gpu, key: 'gpu', render: (_value, host) => twoLines(host.gpuModelName, T.gpuDetail(host.gpuMemoryGb, host.cudaVersion)) },
    {
      title: T.columns.free,
      key: 'free',
      align: 'center',
      render: (_value, host) => (
        <span className="slg-clone-free">
          <strong>{host.gpuFree}</strong> / {host.gpuTotal}
        </span>
      ),
    },
    { title: T.columns.price, key: 'price', render: (_value, host) => <HostPrice host={host} small /> },
    {
      title: T.columns.disk,
      key: 'disk',
      render: (_value, host) => {
        const { disk } = verdictOf(host);
        return (
          <Tag color={disk.color} className="slg-clone-disk-tag">
            {disk.text}
          </Tag>
        );
      },
    },
    { title: T.columns.state, key: 'state', render: (_value, host) => <State verdict={verdictOf(host)} /> },
  ];
}

/** A host at phone width: a radio card with the same facts as a table row. */
function HostCard({ host, verdict }: { host: MarketHost; verdict: HostVerdict }) {
  return (
    <Radio value={host.hostId} disabled={verdict.blocker !== null} aria-label={T.chooseLabel(host.hostName)} className="slg-clone-host-card">
      <span className="slg-clone-host-card-body">
        <span className="slg-clone-host-card-head">
          <HostName host={host} verdict={verdict} />
          <HostPrice host={host} small />
        </span>
        <span className="slg-clone-host-card-facts">
          <span>
            {host.gpuModelName} · {T.gpuDetail(host.gpuMemoryGb, host.cudaVersion)}
          </span>
          <span>
            {T.columns.free} {host.gpuFree} / {host.gpuTotal}
          </span>
        </span>
        <span className="slg-clone-host-card-facts">
          <Tag color={verdict.disk.color} className="slg-clone-disk-tag">
            {verdict.disk.text}
          </Tag>
          <State verdict={verdict} />
        </span>
      </span>
    </Radio>
  );
}

/**
 * The hosts a clone can go to, like the market's list: a table with a radio per row (cards at phone
 * width). A host that cannot take the clone stays listed, disabled, with the reason.
 */
export function TargetHostList({ hosts, verdictOf, chosenHostId, onChoose, loading, pending, phone, page, pageSize, total, onPageChange, empty }: TargetHostListProps) {
  const pagination =
    total > pageSize ? (
      <Pagination
        className="slg-clone-pagination"
        current={page}
        pageSize={pageSize}
        total={total}
        showSizeChanger={false}
        size={phone ? 'small' : undefined}
        onChange={onPageChange}
      />
    ) : null;

  if (phone) {
    if (pending) return <Skeleton active paragraph={{ rows: 6 }} />;
    if (hosts.length === 0) return <>{empty}</>;
    return (
      <>
        <Radio.Group
          className="slg-clone-host-cards"
          aria-label={CLONE_PAGE_TEXTS.target.title}
          aria-busy={loading}
          value={chosenHostId ?? null}
          onChange={(event) => {
            const host = hosts.find((item) => item.hostId === event.target.value);
            if (host) onChoose(host);
          }}
        >
          {hosts.map((host) => (
            <HostCard key={host.hostId} host={host} verdict={verdictOf(host)} />
          ))}
        </Radio.Group>
        {pagination}
      </>
    );
  }

  return (
    <>
      <Table<MarketHost>
        rowKey="hostId"
        size="middle"
        columns={columnsFor(verdictOf)}
        dataSource={[...hosts]}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          type: 'radio',
          columnTitle: T.columns.choose,
          columnWidth: 64,
          selectedRowKeys: chosenHostId ? [chosenHostId] : [],
          onChange: (_keys, rows) => {
            const [host] = rows;
            if (host) onChoose(host);
          },
          getCheckboxProps: (host) => ({ disabled: verdictOf(host).blocker !== null, 'aria-label': T.chooseLabel(host.hostName) }),
        }}
        onRow={(host) => ({
          onClick: () => {
            if (verdictOf(host).blocker === null) onChoose(host);
          },
          className: verdictOf(host).blocker === null ? 'slg-clone-host-row' : 'slg-clone-host-row is-blocked',
        })}
        locale={{ emptyText: pending ? <Skeleton active title={false} paragraph={{ rows: 4 }} /> : empty }}
      />
      {pagination}
    </>
  );
}
