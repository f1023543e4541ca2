import { formatYuan, PACKAGE_UNIT_LABELS, type PackageKey } from '@slg/shared';
import type { ReactNode } from 'react';
import type { PrepayResult } from '../../../api/compute';
import { formatDateTime } from '../../../components/DateTime';
import { CREATE_INSTANCE_TEXTS } from '../createInstances/texts';
import { ORDER_TEXTS } from './texts';

const T = ORDER_TEXTS.figures;

export interface FigureRow {
  label: string;
  value: ReactNode;
  /** The sum to pay: larger, in the page's accent, read out when it changes. */
  total?: boolean;
}

interface OrderFiguresProps {
  quote: PrepayResult;
  gpuNum: number;
  packageKey: PackageKey | null;
  rentAmount: number | undefined;
  /** Rows after the GPUs and the duration, before the sum (the data disk of a clone). */
  detail?: FigureRow[];
  /** Rows after the price (the balance). */
  extra?: FigureRow[];
}

/** The balance as a row of the figures ('-' while it loads). */
export function balanceRow(balance: number | undefined): FigureRow {
  return { label: T.balance, value: balance === undefined ? '-' : formatYuan(balance) };
}

/**
 * The price as a prepay answers it: the unit price and the GPUs, then for a package 原价, 代金券抵扣,
 * 应付金额 and 到期时间, for pay-as-you-go the hourly cost.
 */
export function OrderFigures({ quote, gpuNum, packageKey, rentAmount, detail = [], extra = [] }: OrderFiguresProps) {
  const rows: FigureRow[] = [
    {
      label: T.unitPrice,
      value: packageKey ? T.perGpuPeriod(formatYuan(quote.pricePerGpuFen), PACKAGE_UNIT_LABELS[packageKey]) : T.perGpuHour(formatYuan(quote.pricePerGpuFen)),
    },
    { label: T.gpuNum, value: T.gpuOption(gpuNum) },
    ...(packageKey && rentAmount !== undefined ? [{ label: T.duration, value: CREATE_INSTANCE_TEXTS.package.count(rentAmount, packageKey) }] : []),
    ...detail,
  ];
  if (packageKey) {
    rows.push({ label: T.original, value: formatYuan(quote.amount) });
    if (quote.discount > 0) rows.push({ label: T.voucher, value: `-${formatYuan(quote.discount)}` });
    rows.push({ label: T.payable, value: formatYuan(quote.payable), total: true });
    rows.push({ label: T.expiresAt, value: quote.expiresAt ? formatDateTime(quote.expiresAt) : '-' });
  } else {
    rows.push({ label: T.hourly, value: T.hourlyValue(formatYuan(quote.amount)), total: true });
  }
  rows.push(...extra);
  return (
    <dl className="slg-create-price">
      {rows.map((row) => (
        <div key={row.label} className={row.total ? 'slg-create-price-total' : undefined}>
          <dt>{row.label}</dt>
          <dd aria-live={row.total ? 'polite' : undefined}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
