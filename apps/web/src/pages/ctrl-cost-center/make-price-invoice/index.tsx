import { labelOf, PAYMENT_CHANNELS } from '@slg/shared';
import { Tooltip, type TableColumnsType } from 'antd';
import type { InvoiceableRechargeDto } from '../../../api/invoices';
import { DateTime } from '../../../components/DateTime';
import { Money } from '../../../components/Money';
import { InvoiceApply, type InvoiceApplyConfig } from '../shared/InvoiceApply';
import { COST_PATHS } from '../shared/paths';
import { MAKE_PRICE_INVOICE_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = MAKE_PRICE_INVOICE_TEXTS;

const COLUMNS: TableColumnsType<InvoiceableRechargeDto> = [
  { title: T.columns.rechargeId, dataIndex: 'rechargeId', render: (id: string) => <span className="slg-cost-mono">{id}</span> },
  { title: T.columns.channel, dataIndex: 'channel', render: (value: InvoiceableRechargeDto['channel']) => labelOf(PAYMENT_CHANNELS, value) },
  { title: T.columns.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  {
    title: (
      <Tooltip title={T.columns.invoicedHint}>
        <span className="slg-cost-hinted">{T.columns.invoiced}</span>
      </Tooltip>
    ),
    dataIndex: 'invoiced',
    align: 'right',
    render: (fen: number) => <Money fen={fen} />,
  },
  { title: T.columns.invoiceable, dataIndex: 'invoiceable', align: 'right', render: (fen: number) => <Money fen={fen} strong /> },
  { title: T.columns.paidAt, dataIndex: 'paidAt', render: (value: string | null) => <DateTime value={value} /> },
];

const CONFIG: InvoiceApplyConfig<InvoiceableRechargeDto> = {
  method: 'RECHARGE',
  texts: { ...T, emptyActionPath: COST_PATHS.recharge },
  rows: (data) => data.recharges,
  rowKey: (row) => row.rechargeId,
  invoiceableOf: (row) => row.invoiceable,
  columns: COLUMNS,
  maxSelection: 200,
};

/** 按充值开票: choose paid recharges with an invoiceable amount. */
function MakePriceInvoicePage() {
  return <InvoiceApply config={CONFIG} />;
}

export default withAntd(MakePriceInvoicePage);
