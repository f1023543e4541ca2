import { BellOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Pagination, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { MarketOverview } from '../../api/compute';
import { deleteStockAlert, invalidateStockAlerts, useStockAlertsQuery, type StockAlert } from '../../api/subscriptions';
import { toast } from '../../api/toast';
import { ConfirmAction } from '../../components/ConfirmDialog';
import { formatDateTime } from '../../components/DateTime';
import { QueryError, StaleDataAlert, useErrorShownInPlace } from '../../components/QueryError';
import { StockAlertButton } from './StockAlertDialog';
import './stockAlert.css';
import { STOCK_ALERT_TEXTS } from './stockAlertTexts';

const T = STOCK_ALERT_TEXTS;
const LIST_PAGE_SIZE = 10;

function itemText(alert: StockAlert): string {
  return T.list.item(alert.zoneName, alert.gpuModelName, alert.gpuNum);
}

/** 取消提醒 for a waiting alert, 删除 for a fired one; both ask first and say what happens. */
function StockAlertAction({ alert }: { alert: StockAlert }) {
  const queryClient = useQueryClient();
  const waiting = alert.status === 'WAITING';
  const remove = useMutation({
    mutationFn: () => deleteStockAlert(alert.id),
    onSuccess: () => toast.success(waiting ? T.list.cancelled : T.list.removed),
    onSettled: () => void invalidateStockAlerts(queryClient),
  });
  const item = itemText(alert);
  return (
    <ConfirmAction
      danger
      texts={
        waiting
          ? { title: T.list.cancelTitle, confirm: T.list.cancelConfirm, cancel: T.list.keep }
          : { title: T.list.removeTitle, confirm: T.list.removeConfirm, cancel: T.list.keep }
      }
      onConfirm={() => remove.mutateAsync()}
      trigger={(open) => (
        <Button size="small" danger={waiting} loading={remove.isPending} aria-label={waiting ? T.list.cancelLabel(item) : T.list.removeLabel(item)} onClick={open}>
          {waiting ? T.list.cancel : T.list.remove}
        </Button>
      )}
    >
      <Typography.Text>{waiting ? T.list.cancelBody(item) : T.list.removeBody(item)}</Typography.Text>
    </ConfirmAction>
  );
}

function StockAlertItem({ alert }: { alert: StockAlert }) {
  const waiting = alert.status === 'WAITING';
  return (
    <li className="slg-stock-alert-item">
      <div className="slg-stock-alert-item-main">
        <div className="slg-stock-alert-item-head">
          <strong>{itemText(alert)}</strong>
          <Tag color={waiting ? 'processing' : 'success'}>{alert.statusName}</Tag>
        </div>
        <Typography.Text type="secondary" className="slg-stock-alert-item-meta">
          {T.list.createdAt(formatDateTime(alert.createdAt))}
        </Typography.Text>
        <Typography.Text type="secondary" className="slg-stock-alert-item-meta">
          {alert.notifiedAt ? T.list.notifiedAt(formatDateTime(alert.notifiedAt)) : T.list.waitingHint}
        </Typography.Text>
      </div>
      <StockAlertAction alert={alert} />
    </li>
  );
}

/** 我的到货提醒: the caller's alerts, newest first, with their status kept current while open. */
export function StockAlertDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const alerts = useStockAlertsQuery({ page, pageSize: LIST_PAGE_SIZE }, open);
  const data = alerts.data;
  useErrorShownInPlace(alerts.isError && data ? alerts.error : null);

  let content;
  if (alerts.isPending) {
    content = <Skeleton active paragraph={{ rows: 4 }} />;
  } else if (alerts.isError && !data) {
    content = <QueryError title={T.list.loadFailed} error={alerts.error} onRetry={() => void alerts.refetch()} />;
  } else if (!data || data.total === 0) {
    content = (
      <Empty description={T.list.empty}>
        <Typography.Text type="secondary">{T.list.emptyHint}</Typography.Text>
      </Empty>
    );
  } else {
    content = (
      <>
        {alerts.isError ? (
          <StaleDataAlert title={T.list.refreshFailed} onRetry={() => void alerts.refetch()} />
        ) : null}
        <ul className="slg-stock-alert-items" aria-busy={alerts.isFetching && alerts.isPlaceholderData}>
          {data.list.map((alert) => (
            <StockAlertItem key={alert.id} alert={alert} />
          ))}
        </ul>
        {data.total > LIST_PAGE_SIZE ? (
          <Pagination
            className="slg-stock-alert-pagination"
            size="small"
            current={page}
            pageSize={LIST_PAGE_SIZE}
            total={data.total}
            showSizeChanger={false}
            showTotal={T.list.total}
            onChange={setPage}
          />
        ) : null}
      </>
    );
  }

  return (
    <Drawer open={open} onClose={onClose} title={T.list.title} size={480} closable={{ 'aria-label': T.list.close }} className="slg-stock-alert-drawer">
      <div className="slg-stock-alert-list">
        <Typography.Text type="secondary">{T.list.intro}</Typography.Text>
        {content}
      </div>
    </Drawer>
  );
}

/** The button that opens 我的到货提醒, with the number of waiting alerts. */
export function MyStockAlertsButton() {
  const [open, setOpen] = useState(false);
  const waiting = useStockAlertsQuery({ page: 1, pageSize: 1, status: 'WAITING' });
  const count = waiting.data?.total ?? 0;
  return (
    <>
      <Button icon={<BellOutlined />} onClick={() => setOpen(true)}>
        {count > 0 ? T.list.openWithCount(count) : T.list.open}
      </Button>
      <StockAlertDrawer open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * Above the market's hosts: when a GPU model is chosen and no host (of the chosen zone, or of any
 * zone) can give the GPUs wanted, an offer to be told when one can.
 */
export function StockAlertOffer({
  overview,
  zoneId,
  gpuModelId,
  gpuNum,
}: {
  overview: MarketOverview | undefined;
  zoneId: string | undefined;
  gpuModelId: string | undefined;
  gpuNum: number | undefined;
}) {
  if (!overview || !gpuModelId) return null;
  const model = overview.gpuModels.find((item) => item.gpuModelId === gpuModelId);
  const cells = overview.cells.filter((cell) => cell.gpuModelId === gpuModelId && (!zoneId || cell.zoneId === zoneId));
  const wanted = gpuNum ?? 1;
  const [first] = cells;
  if (!model || !first || cells.some((cell) => cell.maxFreeOnHost >= wanted)) return null;
  const zone = overview.zones.find((item) => item.zoneId === (zoneId ?? first.zoneId));
  if (!zone) return null;
  return (
    <Alert
      type="info"
      showIcon
      icon={<BellOutlined />}
      className="slg-stock-alert-offer"
      title={T.banner.soldOut(model.gpuModelName, zoneId ? zone.zoneName : null, wanted)}
      description={T.banner.hint}
      action={
        <StockAlertButton
          type="primary"
          size="small"
          target={{ zoneId: zone.zoneId, zoneName: zone.zoneName, gpuModelId, gpuModelName: model.gpuModelName, gpuNum: wanted }}
        />
      }
    />
  );
}
