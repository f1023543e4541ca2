import { PACKAGE_LABELS, type PackageKey } from '@slg/shared';
import { useQueries } from '@tanstack/react-query';
import { Alert, Button, Card, Result, Skeleton, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { InstanceView } from '../../../api/compute';
import { LinkButton } from '../../../components/LinkButton';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { BackToList, BadLink, BillingPage, INSTANCE_ID_PATTERN, instanceDetailQuery, isMissingInstance } from '../containerInstances/components/BillingPageFrame';
import { BILLING_PAGE_TEXTS } from '../containerInstances/components/billingPageTexts';
import { statusLabelOf } from '../containerInstances/components/InstanceStatus';
import { RenewChoices, RenewLines, RenewPrice, useRenewForm } from '../containerInstances/components/RenewForm';
import { canDo, packageOf } from '../containerInstances/instanceRules';
import { COMPUTE_PATHS, renewPath, yearMonthPackagesPath } from '../paths';
import { RENEW_PAGE_TEXTS } from './texts';

const T = RENEW_PAGE_TEXTS;
/** The server renews at most this many instances in one call (`MAX_RENEW_BATCH`). */
const MAX_RENEW_BATCH = 50;
/** Up to a batch of instances is asked for one by one: less often than a single instance's page. */
const BATCH_REFRESH_MS = 15_000;

type ParsedIds = { ok: true; ids: string[] } | { ok: false; problem: 'none' | 'invalid' | 'tooMany' };

/** `?instanceIds=id1,id2`: every id well formed, each once, at most a batch. */
export function parseInstanceIds(raw: string | null): ParsedIds {
  const ids = [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) return { ok: false, problem: 'none' };
  if (!ids.every((id) => INSTANCE_ID_PATTERN.test(id))) return { ok: false, problem: 'invalid' };
  if (ids.length > MAX_RENEW_BATCH) return { ok: false, problem: 'tooMany' };
  return { ok: true, ids };
}

export type NotRenewableReason = 'missing' | 'usage' | 'state';

export interface RenewalPlan {
  /** The renewable instances by package, in the order of the link. */
  groups: { key: PackageKey; instances: InstanceView[] }[];
  refused: { instanceId: string; instance: InstanceView | null; reason: NotRenewableReason }[];
}

/** Which of the named instances can be renewed now, by package, and why each other one cannot. */
export function planRenewal(ids: readonly string[], found: ReadonlyMap<string, InstanceView | null>): RenewalPlan {
  const groups = new Map<PackageKey, InstanceView[]>();
  const refused: RenewalPlan['refused'] = [];
  for (const instanceId of ids) {
    const instance = found.get(instanceId) ?? null;
    const key = instance ? packageOf(instance) : null;
    if (!instance) refused.push({ instanceId, instance, reason: 'missing' });
    else if (!key) refused.push({ instanceId, instance, reason: 'usage' });
    else if (!canDo(instance, 'renew')) refused.push({ instanceId, instance, reason: 'state' });
    else groups.set(key, [...(groups.get(key) ?? []), instance]);
  }
  return { groups: [...groups].map(([key, instances]) => ({ key, instances })), refused };
}

function reasonText({ reason, instance }: RenewalPlan['refused'][number]): string {
  if (reason === 'state') return T.reasons.state(instance ? statusLabelOf(instance) : '-');
  return T.reasons[reason];
}

function RefusedCard({ refused }: { refused: RenewalPlan['refused'] }) {
  if (refused.length === 0) return null;
  return (
    <Card title={T.notRenewable(refused.length)} className="slg-billing-card">
      <ul className="slg-plan-lines is-page" aria-label={T.notRenewable(refused.length)}>
        {refused.map((entry) => (
          <li key={entry.instanceId}>
            <div className="slg-plan-line-head">
              <strong>{entry.instance?.name ?? entry.instanceId}</strong>
              {entry.reason === 'usage' ? (
                <LinkButton size="small" to={yearMonthPackagesPath(entry.instanceId)}>
                  {T.toPackage}
                </LinkButton>
              ) : null}
            </div>
            <Typography.Text type="warning" className="slg-instance-note">
              {reasonText(entry)}
            </Typography.Text>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The instances of one package, the duration and voucher, the server's price and 确认续费 naming it. */
function RenewPageForm({ packageKey, instances, refused }: { packageKey: PackageKey; instances: InstanceView[]; refused: RenewalPlan['refused'] }) {
  const navigate = useNavigate();
  const form = useRenewForm({ instances, packageKey, enabled: true, onRenewed: () => void navigate(COMPUTE_PATHS.list) });
  return (
    <div className="slg-billing-layout">
      <div className="slg-billing-main">
        <Card title={T.renewing(instances.length)} className="slg-billing-card">
          <RenewLines form={form} className="is-page" />
        </Card>
        <RefusedCard refused={refused} />
      </div>
      <div className="slg-billing-side">
        <Card title={T.payment} className="slg-billing-card">
          <Space orientation="vertical" size={12}>
            <RenewChoices form={form} idPrefix="renew-page" />
            <RenewPrice form={form} />
            <Button type="primary" size="large" className="slg-billing-submit" disabled={!form.ready} loading={form.paying} onClick={form.submit}>
              {form.submitText}
            </Button>
          </Space>
        </Card>
      </div>
    </div>
  );
}

/** Renewable instances of several packages: each package is renewed on its own, by a link to just its instances. */
function MixedPackages({ groups }: { groups: RenewalPlan['groups'] }) {
  return (
    <Alert
      type="warning"
      showIcon
      title={T.mixed}
      description={
        <Space orientation="vertical" size={8}>
          <span>{T.mixedHint}</span>
          <Space wrap size={8}>
            {groups.map((group) => (
              <LinkButton key={group.key} to={renewPath(group.instances.map((instance) => instance.instanceId))}>
                {T.renewGroup(PACKAGE_LABELS[group.key], group.instances.length)}
              </LinkButton>
            ))}
          </Space>
        </Space>
      }
    />
  );
}

function RenewInstances({ ids }: { ids: string[] }) {
  const results = useQueries({ queries: ids.map((instanceId) => instanceDetailQuery(instanceId, BATCH_REFRESH_MS)) });
  const failed = results.filter((result) => result.isError && !result.data && !isMissingInstance(result.error));
  if (failed[0]) {
    return (
      <QueryError
        variant="page"
        title={T.loadFailed}
        error={failed[0].error}
        onRetry={() => {
          for (const result of failed) void result.refetch();
        }}
      />
    );
  }
  if (results.some((result) => result.isPending && !result.isError)) return <Skeleton active paragraph={{ rows: 6 }} />;
  const found = new Map(ids.map((instanceId, index) => [instanceId, results[index]?.data ?? null]));
  const plan = planRenewal(ids, found);
  const [only, ...others] = plan.groups;
  if (!only) {
    return (
      <>
        <Result status="warning" title={T.nothingRenewable} subTitle={T.nothingRenewableHint} extra={<BackToList type="primary" />} />
        <RefusedCard refused={plan.refused} />
      </>
    );
  }
  if (others.length > 0) {
    return (
      <>
        <MixedPackages groups={plan.groups} />
        <RefusedCard refused={plan.refused} />
      </>
    );
  }
  const key = `${only.key}:${only.instances.map((instance) => instance.instanceId).join(',')}`;
  return <RenewPageForm key={key} packageKey={only.key} instances={only.instances} refused={plan.refused} />;
}

/** `/ctrl-container-instances/renew?instanceIds=id1,id2`: 续费 of one or more package instances (批量续费 of the list). */
function RenewPage() {
  const [params] = useSearchParams();
  const parsed = parseInstanceIds(params.get('instanceIds'));
  let content: ReactNode;
  if (parsed.ok) content = <RenewInstances ids={parsed.ids} />;
  else if (parsed.problem === 'tooMany') content = <BadLink title={T.tooMany(MAX_RENEW_BATCH)} />;
  else if (parsed.problem === 'none') content = <BadLink title={T.noIds} hint={BILLING_PAGE_TEXTS.invalidIdHint} />;
  else content = <BadLink title={BILLING_PAGE_TEXTS.invalidId} hint={BILLING_PAGE_TEXTS.invalidIdHint} />;
  return (
    <BillingPage title={T.title} description={T.description}>
      {content}
    </BillingPage>
  );
}

export default withAntd(RenewPage);
