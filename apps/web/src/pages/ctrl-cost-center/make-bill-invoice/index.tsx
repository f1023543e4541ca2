import { Tooltip, type TableColumnsType } from 'antd';
import type { InvoiceableMonthDto } from '../../../api/invoices';
import { Money } from '../../../components/Money';
import { InvoiceApply, type InvoiceApplyConfig } from '../shared/InvoiceApply';
import { COST_PATHS } from '../shared/paths';
import { MAKE_BILL_INVOICE_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = MAKE_BILL_INVOICE_TEXTS;

/** A column title with a tooltip that says why the amount is (not) invoiceable. */
function hinted(title: string, hint: string) {
  return (
    <Tooltip title={hint}>
      <span className="slg-cost-hinted">{title}</span>
    </Tooltip>
  );
}

const COLUMNS: TableColumnsType<InvoiceableMonthDto> = [
  { title: T.columns.month, dataIndex: 'month' },
  { title: T.columns.consumption, dataIndex: 'consumption', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  {
    title: hinted(T.columns.giftPaid, T.columns.giftPaidHint),
    dataIndex: 'giftPaid',
    align: 'right',
    render: (fen: number) => <Money fen={fen} />,
  },
  {
    title: hinted(T.columns.voucherPaid, T.columns.voucherPaidHint),
    dataIndex: 'voucherPaid',
    align: 'right',
    render: (fen: number) => <Money fen={fen} />,
  },
  {
    title: hinted(T.columns.invoiced, T.columns.invoicedHint),
    dataIndex: 'invoiced',
    align: 'right',
    render: (fen: number) => <Money fen={fen} />,
  },
  { title: T.columns.invoiceable, dataIndex: 'invoiceable', align: 'right', render: (fen: number) => <Money fen={fen} strong /> },
];

const CONFIG: InvoiceApplyConfig<InvoiceableMonthDto> = {
  method: 'BILL',
  texts: { ...T, emptyActionPath: COST_PATHS.bills },
  rows: (data) => data.months,
  rowKey: (row) => row.month,
  invoiceableOf: (row) => row.invoiceable,
  columns: COLUMNS,
  maxSelection: 120,
};

/** 按账单开票: choose billed months with an invoiceable amount. */
function MakeBillInvoicePage() {
  return <InvoiceApply config={CONFIG} />;
}

export default withAntd(MakeBillInvoicePage);
