import { ArrowLeftOutlined } from '@ant-design/icons';
import { formatYuan, PACKAGE_LABELS } from '@slg/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../../api/client';
import type { InstanceView } from '../../../../api/compute';
import { fetchInstanceDetail } from '../../../../api/monitoring';
import { queryKeys } from '../../../../api/queryKeys';
import { formatDateTime } from '../../../../components/DateTime';
import { LinkButton } from '../../../../components/LinkButton';
import { PageHeader } from '../../../../components/PageHeader';
import { QueryError } from '../../../../components/QueryError';
import { COMPUTE_PATHS } from '../../paths';
import { packageOf } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { BILLING_PAGE_TEXTS } from './billingPageTexts';
import { InstanceStatus } from './InstanceStatus';
import './billing.css';

const T = BILLING_PAGE_TEXTS;

/** The server's instance id (`instanceIdField`): a link naming anything else is broken. */
export const INSTANCE_ID_PATTERN = /^slg-[a-z0-9]{10}$/;

/** The state follows the instance, so an action offered here is one the server would take now. */
const DETAIL_REFRESH_MS = 5_000;

/** One instance, as 升降配置 and 监控 load it (same key: a change anywhere refreshes it here). */
export function instanceDetailQuery(instanceId: string, refetchInterval = DETAIL_REFRESH_MS) {
  return {
    queryKey: [...queryKeys.instances, 'detail', instanceId] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchInstanceDetail(instanceId, signal),
    refetchInterval,
  };
}

/** The server does not know the instance (never, or released: released ones are not listed). */
export function isMissingInstance(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

export function BackToList({ type = 'text' }: { type?: 'text' | 'default' | 'primary' }) {
  return (
    <LinkButton to={COMPUTE_PATHS.list} icon={type === 'text' ? <ArrowLeftOutlined /> : undefined} type={type}>
      {T.back}
    </LinkButton>
  );
}

/** A page of the billing group: its title with the way back to the list, and its content in a column. */
export function BillingPage({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <div className="slg-billing-page">
      <PageHeader title={title} description={description} back={<BackToList />} />
      {children}
    </div>
  );
}

/** A link that cannot lead anywhere (no id, a malformed one, one that is gone): what is wrong and the way back. */
export function BadLink({ title, hint, status = 'warning' }: { title: string; hint?: ReactNode; status?: 'warning' | '404' }) {
  return <Result status={status} title={title} subTitle={hint} extra={<BackToList type="primary" />} />;
}

/**
 * The page of one instance named by `?instanceId=`: a broken link or a released instance says so with
 * the way back, a failed load offers 重试, and `children` gets the instance, kept current.
 */
export function SingleInstancePage({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: (instance: InstanceView) => ReactNode;
}) {
  const [params] = useSearchParams();
  const instanceId = params.get('instanceId') ?? '';
  const valid = INSTANCE_ID_PATTERN.test(instanceId);
  const instance = useQuery({ ...instanceDetailQuery(instanceId), enabled: valid });
  let content: ReactNode;
  if (!valid) content = <BadLink title={T.invalidId} hint={T.invalidIdHint} />;
  else if (instance.isError && isMissingInstance(instance.error)) content = <BadLink status="404" title={T.missing} />;
  else if (instance.isError && !instance.data) content = <QueryError variant="page" title={T.loadFailed} error={instance.error} onRetry={() => void instance.refetch()} />;
  else if (!instance.data) content = <Skeleton active paragraph={{ rows: 6 }} />;
  else content = children(instance.data);
  return (
    <BillingPage title={title} description={description}>
      {content}
    </BillingPage>
  );
}

/** The instance whose billing changes: name, state, where it runs, its GPUs and how it is billed now. */
export function InstanceFacts({ instance }: { instance: InstanceView }) {
  const plan = packageOf(instance);
  return (
    <Card title={T.instance} className="slg-billing-card">
      <Descriptions column={{ xs: 1, sm: 2 }} size="small">
        <Descriptions.Item label={T.instance}>
          <span className="slg-billing-name">
            {instance.name}（{instance.instanceId}）
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={T.status}>
          <InstanceStatus instance={instance} />
        </Descriptions.Item>
        <Descriptions.Item label={T.host}>
          {instance.zoneName} · {instance.hostName}
        </Descriptions.Item>
        <Descriptions.Item label={T.gpus}>{INSTANCE_LIST_TEXTS.spec.gpu(instance.gpuModelName, instance.gpuNum)}</Descriptions.Item>
        <Descriptions.Item label={T.billing}>{plan ? PACKAGE_LABELS[plan] : T.usage(formatYuan(instance.gpuPriceFen))}</Descriptions.Item>
        {plan ? <Descriptions.Item label={T.expiresAt}>{formatDateTime(instance.expiresAt)}</Descriptions.Item> : null}
        {plan ? <Descriptions.Item label={T.autoRenew}>{instance.autoRenew ? T.autoRenewOn : T.autoRenewOff}</Descriptions.Item> : null}
      </Descriptions>
    </Card>
  );
}
