import { formatYuan, maskTelephone } from '@slg/shared';
import { Alert, Button, Card, Col, Descriptions, Row, Skeleton, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link, useNavigate } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { visibleTo } from '../../../router/menus';
import { findRoute, ROUTES } from '../../../router/routes';
import { sessionSnapshot } from '../../../session/session';
import { displayName, useUserStore, type CurrentUser } from '../../../stores/user';
import { OVERVIEW_TEXTS } from './texts';

const SELF_PATH = '/ctrl-overview/overview';
const RECHARGE_PATH = '/ctrl-cost-center/cost-center/recharge';
const T = OVERVIEW_TEXTS;

/** Console pages with a page of their own, besides this one. */
const QUICK_LINKS = ROUTES.filter((record) => record.page && record.meta.console && record.meta.sidebar && record.path !== SELF_PATH);

const HELP_LINKS = [
  { path: '/about', label: T.help.about },
  { path: '/terms/service-terms', label: T.help.serviceTerms },
  { path: '/terms/privacy-terms', label: T.help.privacyTerms },
].filter((link) => findRoute(link.path)?.page);

function AccountCard({ user }: { user: CurrentUser | null }) {
  if (!user) {
    return (
      <Card title={T.account.title}>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  const isMain = user.kind === 'main';
  return (
    <Card title={T.account.title} className="slg-fill-card">
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'name', label: T.account.name, children: isMain ? user.info.userName : user.info.username },
          {
            key: 'telephone',
            label: T.account.telephone,
            children: isMain && user.info.telephone ? maskTelephone(user.info.telephone) : T.account.empty,
          },
          {
            key: 'type',
            label: T.account.type,
            children: <Tag color={isMain ? 'blue' : 'purple'}>{isMain ? T.account.main : T.account.sub}</Tag>,
          },
          {
            key: 'createdAt',
            label: T.account.createdAt,
            children: isMain && user.info.createdAt ? dayjs(user.info.createdAt).format('YYYY-MM-DD HH:mm') : T.account.empty,
          },
        ]}
      />
    </Card>
  );
}

function BalanceCard() {
  const balance = useBalanceQuery();
  const navigate = useNavigate();
  const session = sessionSnapshot(useUserStore());
  const rechargeRoute = findRoute(RECHARGE_PATH);
  const canRecharge = Boolean(rechargeRoute?.page && visibleTo(rechargeRoute, session));
  return (
    <Card title={T.balance.title} className="slg-fill-card">
      {balance.isPending ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : balance.isError ? (
        <Alert
          type="error"
          showIcon
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
          <Typography.Text type="secondary">{T.balance.unit}</Typography.Text>
          <div className="slg-overview-balance">
            {formatYuan(balance.data.totalBalance)}
          </div>
          {canRecharge ? (
            <Button type="primary" style={{ marginTop: 16 }} onClick={() => void navigate(RECHARGE_PATH)}>
              {T.balance.recharge}
            </Button>
          ) : null}
        </div>
      )}
    </Card>
  );
}

/** 总览: greeting, account, balance and links to what exists. */
export default function OverviewPage() {
  const user = useUserStore((state) => state.userInfo);
  const name = displayName(user);

  return (
    <div className="slg-page">
      <div className="slg-overview-hero">
        <Typography.Title level={3} className="slg-overview-greeting">
          {name ? `${T.greeting(dayjs().hour())}，${name}` : T.greeting(dayjs().hour())}
        </Typography.Title>
        <Typography.Text type="secondary">{T.welcome}</Typography.Text>
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <AccountCard user={user} />
        </Col>
        <Col xs={24} lg={12}>
          <BalanceCard />
        </Col>
        {QUICK_LINKS.length > 0 ? (
          <Col xs={24} lg={12}>
            <Card title={T.quickLinks.title}>
              <div className="slg-link-grid">
                {QUICK_LINKS.map((record) => (
                  <Link key={record.path} to={record.path}>
                    {record.meta.title}
                  </Link>
                ))}
              </div>
            </Card>
          </Col>
        ) : null}
        {HELP_LINKS.length > 0 ? (
          <Col xs={24} lg={12}>
            <Card title={T.help.title}>
              <div className="slg-link-grid">
                {HELP_LINKS.map((link) => (
                  <Link key={link.path} to={link.path}>
                    {link.label}
                  </Link>
                ))}
              </div>
            </Card>
          </Col>
        ) : null}
      </Row>
    </div>
  );
}
