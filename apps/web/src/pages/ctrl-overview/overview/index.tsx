import { formatYuan, maskTelephone } from '@slg/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { useElasticOverviewQuery } from '../../../api/elasticOverview';
import { useInstanceSummaryQuery, type InstanceSummary } from '../../../api/instanceSummary';
import { visibleTo } from '../../../router/menus';
import { findRoute, ROUTES } from '../../../router/routes';
import { sessionSnapshot } from '../../../session/session';
import { displayName, useUserStore, type CurrentUser } from '../../../stores/user';
import { Button, ButtonLink } from '../../../ui/Button';
import { Alert, Skeleton, Tag } from '../../../ui/feedback';
import { OVERVIEW_TEXTS } from './texts';

const SELF_PATH = '/ctrl-overview/overview';
const RECHARGE_PATH = '/ctrl-cost-center/cost-center/recharge';
const INSTANCES_PATH = '/ctrl-container-instances/containerInstances';
const MARKET_PATH = '/computility-market';
const ELASTIC_LIST_PATH = '/ctrl-flexible-deployment/flexiible-deployment/flexiible-deployment';
const ELASTIC_CREATE_PATH = '/ctrl-flexible-deployment/flexiible-deployment/create-flexible';
const T = OVERVIEW_TEXTS;

/** Console pages with a page of their own, besides this one. */
const QUICK_LINKS = ROUTES.filter((record) => record.page && record.meta.console && record.meta.sidebar && record.path !== SELF_PATH);

const HELP_LINKS = [
  { path: '/about', label: T.help.about },
  { path: '/terms/service-terms', label: T.help.serviceTerms },
  { path: '/terms/privacy-terms', label: T.help.privacyTerms },
].filter((link) => findRoute(link.path)?.page);

/** A titled card (antd's Card look), labelled by its title. */
function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="slg-card slg-fill-card" aria-labelledby={id}>
      <div className="slg-card-head">
        <h2 id={id} className="slg-card-title">
          {title}
        </h2>
      </div>
      <div className="slg-card-body">{children}</div>
    </section>
  );
}

/** `YYYY-MM-DD HH:mm` in the browser's time zone. */
function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

function AccountCard({ user }: { user: CurrentUser | null }) {
  if (!user) {
    return (
      <Card id="overview-account" title={T.account.title}>
        <Skeleton rows={3} />
      </Card>
    );
  }
  const isMain = user.kind === 'main';
  const rows: { key: string; label: string; value: ReactNode }[] = [
    { key: 'name', label: T.account.name, value: isMain ? user.info.userName : user.info.username },
    { key: 'telephone', label: T.account.telephone, value: isMain && user.info.telephone ? maskTelephone(user.info.telephone) : T.account.empty },
    { key: 'type', label: T.account.type, value: <Tag color={isMain ? 'blue' : 'purple'}>{isMain ? T.account.main : T.account.sub}</Tag> },
    { key: 'createdAt', label: T.account.createdAt, value: isMain && user.info.createdAt ? formatDateTime(user.info.createdAt) : T.account.empty },
  ];
  return (
    <Card id="overview-account" title={T.account.title}>
      <dl className="slg-descriptions">
        {rows.map((row) => (
          <div key={row.key} className="slg-descriptions-row">
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function BalanceCard() {
  const balance = useBalanceQuery();
  const session = sessionSnapshot(useUserStore());
  const rechargeRoute = findRoute(RECHARGE_PATH);
  const canRecharge = Boolean(rechargeRoute?.page && visibleTo(rechargeRoute, session));
  return (
    <Card id="overview-balance" title={T.balance.title}>
      {balance.isPending ? (
        <Skeleton rows={1} />
      ) : balance.isError ? (
        <Alert
          type="error"
          title={T.balance.loadFailed}
          description={balance.error.message}
          action={
            <Button size="small" onClick={() => void balance.refetch()}>
              {T.balance.retry}
            </Button>
          }
        />
      ) : (
        <div>
          <span className="slg-muted">{T.balance.unit}</span>
          <div className="slg-overview-balance">{formatYuan(balance.data.totalBalance)}</div>
          {canRecharge ? (
            <ButtonLink to={RECHARGE_PATH} variant="primary" className="slg-overview-recharge">
              {T.balance.recharge}
            </ButtonLink>
          ) : null}
        </div>
      )}
    </Card>
  );
}

/** Running (with or without GPUs), powered off, and every other state (creating, releasing, failed …). */
function instanceCounts(summary: InstanceSummary) {
  const running = (summary.byStatus.PoweredOn ?? 0) + (summary.byStatus.PoweredOnNoGPU ?? 0);
  const off = summary.byStatus.PoweredOff ?? 0;
  return { running, off, other: summary.total - running - off };
}

function InstancesCard() {
  const session = sessionSnapshot(useUserStore());
  const listRoute = findRoute(INSTANCES_PATH);
  const visible = Boolean(listRoute?.page && visibleTo(listRoute, session));
  const summary = useInstanceSummaryQuery(visible);
  if (!visible) return null;
  let body: ReactNode;
  if (summary.isPending) body = <Skeleton rows={3} />;
  else if (summary.isError) {
    body = (
      <Alert
        type="error"
        title={T.instances.loadFailed}
        description={summary.error.message}
        action={
          <Button size="small" onClick={() => void summary.refetch()}>
            {T.instances.retry}
          </Button>
        }
      />
    );
  } else if (summary.data.total === 0) {
    body = (
      <div>
        <p className="slg-muted">{T.instances.empty}</p>
        <ButtonLink to={MARKET_PATH} variant="primary" className="slg-overview-recharge">
          {T.instances.market}
        </ButtonLink>
      </div>
    );
  } else {
    const counts = instanceCounts(summary.data);
    const rows = [
      { key: 'running', label: T.instances.running, value: String(counts.running) },
      { key: 'off', label: T.instances.off, value: String(counts.off) },
      { key: 'other', label: T.instances.other, value: String(counts.other) },
      { key: 'cost', label: T.instances.cost, value: T.instances.perHour(formatYuan(summary.data.runningCostPerHourFen)) },
    ];
    body = (
      <div>
        <dl className="slg-descriptions">
          {rows.map((row) => (
            <div key={row.key} className="slg-descriptions-row">
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
        <ButtonLink to={INSTANCES_PATH} className="slg-overview-recharge">
          {T.instances.list}
        </ButtonLink>
      </div>
    );
  }
  return (
    <Card id="overview-instances" title={T.instances.title}>
      {body}
    </Card>
  );
}

/** 弹性部署: running deployments and containers and what they cost per hour; only for who may open 弹性部署. */
function ElasticCard() {
  const session = sessionSnapshot(useUserStore());
  const listRoute = findRoute(ELASTIC_LIST_PATH);
  const visible = Boolean(listRoute?.page && visibleTo(listRoute, session));
  const overview = useElasticOverviewQuery(visible);
  if (!visible) return null;
  let body: ReactNode;
  if (overview.isPending) body = <Skeleton rows={3} />;
  else if (overview.isError) {
    body = (
      <Alert
        type="error"
        title={T.elastic.loadFailed}
        description={overview.error.message}
        action={
          <Button size="small" onClick={() => void overview.refetch()}>
            {T.elastic.retry}
          </Button>
        }
      />
    );
  } else if (overview.data.running === 0 && overview.data.containersRunning === 0) {
    body = (
      <div>
        <p className="slg-muted">{T.elastic.empty}</p>
        <ButtonLink to={ELASTIC_CREATE_PATH} variant="primary" className="slg-overview-recharge">
          {T.elastic.create}
        </ButtonLink>
      </div>
    );
  } else {
    const rows = [
      { key: 'running', label: T.elastic.running, value: String(overview.data.running) },
      { key: 'containers', label: T.elastic.containers, value: String(overview.data.containersRunning) },
      { key: 'cost', label: T.elastic.cost, value: T.elastic.perHour(formatYuan(overview.data.costPerHourFen)) },
    ];
    body = (
      <div>
        <dl className="slg-descriptions">
          {rows.map((row) => (
            <div key={row.key} className="slg-descriptions-row">
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
        <ButtonLink to={ELASTIC_LIST_PATH} className="slg-overview-recharge">
          {T.elastic.list}
        </ButtonLink>
      </div>
    );
  }
  return (
    <Card id="overview-elastic" title={T.elastic.title}>
      {body}
    </Card>
  );
}

/** 总览: greeting, account, balance, instances, 弹性部署 and links to what exists. */
export default function OverviewPage() {
  const user = useUserStore((state) => state.userInfo);
  const name = displayName(user);
  const greeting = T.greeting(new Date().getHours());

  return (
    <div className="slg-page">
      <div className="slg-overview-hero">
        <h1 className="slg-overview-greeting">{name ? `${greeting}，${name}` : greeting}</h1>
        <p className="slg-muted">{T.welcome}</p>
      </div>
      <div className="slg-overview-grid">
        <AccountCard user={user} />
        <BalanceCard />
        <InstancesCard />
        <ElasticCard />
        {QUICK_LINKS.length > 0 ? (
          <Card id="overview-quick-links" title={T.quickLinks.title}>
            <div className="slg-link-grid">
              {QUICK_LINKS.map((record) => (
                <Link key={record.path} to={record.path}>
                  {record.meta.title}
                </Link>
              ))}
            </div>
          </Card>
        ) : null}
        {HELP_LINKS.length > 0 ? (
          <Card id="overview-help" title={T.help.title}>
            <div className="slg-link-grid">
              {HELP_LINKS.map((link) => (
                <Link key={link.path} to={link.path}>
                  {link.label}
                </Link>
              ))}
            </div>
          </Card>
        ) : null}
      </div>
    </div>
  );
}
