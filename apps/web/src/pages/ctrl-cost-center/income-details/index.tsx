import { ListEmpty } from '../shared/ListEmpty';
import { INCOME_TYPES, isDictValue } from '@slg/shared';
import { Card, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { useLedgerQuery, type LedgerEntryDto } from '../../../api/billing';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { CellText } from '../../../components/CellText';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import '../costCenter.css';
import { DataTable } from '../shared/DataTable';
import { DayRangeFilter, DictSelect, FilterBar } from '../shared/Filters';
import { LEDGER_TYPES, ledgerTypeLabel } from '../shared/labels';
import { COST_PATHS, orderDetailPath } from '../shared/paths';
import { COST_TEXTS } from '../shared/texts';
import { daysToQuery } from '../shared/timeRange';
import { PAGE_SIZE, useListState } from '../shared/useListState';
import { INCOME_DETAILS_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = INCOME_DETAILS_TEXTS;
const FILTER_KEYS = ['incomeType', 'type', 'from', 'to'] as const;

const LEDGER_COLUMNS: TableColumnsType<LedgerEntryDto> = [
  { title: T.columns.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
  { title: T.columns.type, dataIndex: 'type', render: (value: LedgerEntryDto['type']) => ledgerTypeLabel(value) },
  {
    title: T.columns.amount,
    dataIndex: 'amount',
    align: 'right',
    render: (fen: number) => <Money fen={fen} signed colored strong />,
  },
  { title: T.columns.balanceAfter, dataIndex: 'balanceAfter', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.columns.description, dataIndex: 'description', render: (text: string) => <CellText>{text}</CellText> },
  {
    title: T.columns.related,
    key: 'related',
    render: (_value, row) =>
      row.orderNo ? (
        <Link to={orderDetailPath(row.orderNo)} className="slg-cost-mono">
          {row.orderNo}
        </Link>
      ) : row.rechargeId ? (
        <span className="slg-cost-mono">{T.rechargeRef(row.rechargeId)}</span>
      ) : (
        COST_TEXTS.empty
      ),
  },
];

/** 收支明细: ledger entries of the caller's paying wallet. */
function IncomeDetailsPage() {
  const list = useListState(FILTER_KEYS);
  const { incomeType, type, from, to } = list.filters;
  const incomeValue = isDictValue(INCOME_TYPES, incomeType) ? incomeType : undefined;
  const typeValue = isDictValue(LEDGER_TYPES, type) ? type : undefined;
  const query = useLedgerQuery({ page: list.page, pageSize: PAGE_SIZE, incomeType: incomeValue, type: typeValue, ...daysToQuery(from, to) });
  const filtered = Boolean(incomeValue || typeValue || from);

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <Card>
        <FilterBar onReset={list.reset}>
          <DictSelect label={T.filters.incomeType} dict={INCOME_TYPES} value={incomeValue} onChange={(value) => list.setFilters({ incomeType: value })} />
          <DictSelect label={T.filters.type} dict={LEDGER_TYPES} value={typeValue} onChange={(value) => list.setFilters({ type: value })} />
          <DayRangeFilter from={from} to={to} onChange={(days) => list.setFilters(days)} />
        </FilterBar>
        <DataTable<LedgerEntryDto>
          rowKey="id"
          columns={LEDGER_COLUMNS}
          query={query}
          page={list.page}
          onPageChange={list.setPage}
          errorTitle={T.loadFailed}
          empty={
            <ListEmpty
              filtered={filtered}
              text={T.empty}
              filteredText={T.emptyFiltered}
              action={
                <LinkButton to={COST_PATHS.recharge} type="primary">
                  {T.emptyAction}
                </LinkButton>
              }
            />
          }
        />
      </Card>
    </div>
  );
}

export default withAntd(IncomeDetailsPage);
