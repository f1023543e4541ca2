import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Skeleton, Space, Table, Typography, type TableColumnsType } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { billingKeys, fetchLedgerEntries, type LedgerEntryDto } from '../../../api/billing';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { CellText } from '../../../components/CellText';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { findRoute, ROUTES } from '../../../router/routes';
import '../costCenter.css';
import { ledgerTypeLabel } from '../shared/labels';
import { COST_CENTER_PATH, COST_PATHS } from '../shared/paths';
import { COST_OVERVIEW_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = COST_OVERVIEW_TEXTS;
const LATEST_COUNT = 5;

/** The cost-centre pages that exist, in the sidebar's order, plus the redemption page. */
const QUICK_LINKS = [
  ...ROUTES.filter((record) => record.parentPath === COST_CENTER_PATH && record.page && record.meta.sidebar).map((record) => ({
    path: record.path,
    label: record.meta.title ?? record.path,
  })),
  ...(findRoute(COST_PATHS.exchange)?.page ? [{ path: COST_PATHS.exchange, label: T.links.redeem }] : []),
];

const LATEST_COLUMNS: TableColumnsType<LedgerEntryDto> = [
  { title: T.latest.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
  { title: T.latest.type, dataIndex: 'type', render: (value: string) => ledgerTypeLabel(value) },
  { title: T.latest.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} signed colored strong /> },
  { title: T.latest.balanceAfter, dataIndex: 'balanceAfter', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.latest.description, dataIndex: 'description', render: (text: string) => <CellText>{text}</CellText> },
];

function BalanceCard() {
  const navigate = useNavigate();
  const balance = useBalanceQuery();
  return (
    <Card title={T.balance.title} className="slg-fill-card">
      {balance.isPending ? (
        <Skeleton active title={false} paragraph={{ rows: 2 }} />
      ) : balance.isError ? (
        <QueryError title={T.balance.loadFailed} error={balance.error} onRetry={() => void balance.refetch()} />
      ) : (
        <Space orientation="vertical" size={16}>
          <div>
            <Typography.Text type="secondary">{T.balance.unit}</Typography.Text>
            <div className="slg-cost-stat-value">
              <Money fen={balance.data.totalBalance} />
            </div>
          </div>
          <Space wrap>
            <Button type="primary" onClick={() => void navigate(COST_PATHS.recharge)}>
              {T.balance.recharge}
            </Button>
            <LinkButton to={COST_PATHS.rechargeRecord}>{T.balance.records}</LinkButton>
          </Space>
        </Space>
      )}
    </Card>
  );
}

function LatestEntries() {
  const query = useQuery({
    queryKey: billingKeys.ledgerList({ page: 1, pageSize: LATEST_COUNT }),
    queryFn: () => fetchLedgerEntries({ page: 1, pageSize: LATEST_COUNT }),
  });
  let body;
  if (query.isPending) body = <Skeleton active title={false} paragraph={{ rows: 4 }} />;
  else if (query.isError) body = <QueryError title={T.latest.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  else
    body = (
      <Table<LedgerEntryDto>
        rowKey="id"
        size="small"
        columns={LATEST_COLUMNS}
        dataSource={query.data.list}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: (
            <Empty description={T.latest.empty}>
              <LinkButton to={COST_PATHS.recharge} type="primary">
                {T.latest.emptyAction}
              </LinkButton>
            </Empty>
          ),
        }}
      />
    );
  return (
    <Card title={T.latest.title} extra={<Link to={COST_PATHS.incomeDetails}>{T.latest.all}</Link>}>
      {body}
    </Card>
  );
}

/** 费用中心 (the parent route): balance, quick links and the latest ledger entries. */
function CostCenterPage() {
  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <BalanceCard />
        </Col>
        <Col xs={24} lg={14}>
          <Card title={T.links.title} className="slg-fill-card">
            <nav aria-label={T.links.title} className="slg-cost-links">
              {QUICK_LINKS.map((link) => (
                <Link key={link.path} to={link.path}>
                  {link.label}
                </Link>
              ))}
            </nav>
          </Card>
        </Col>
        <Col xs={24}>
          <LatestEntries />
        </Col>
      </Row>
    </div>
  );
}

export default withAntd(CostCenterPage);
