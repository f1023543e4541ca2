import { formatYuan, type OrderTypeValue } from '@slg/shared';
import { Select } from 'antd';
import { useUnusedVouchersQuery, voucherFits } from '../../api/vouchers';
import { VOUCHER_SELECT_TEXTS as T } from './texts';

interface VoucherSelectProps {
  id: string;
  /** The order the voucher would pay: its type and undiscounted amount (undefined while it is priced). */
  orderType: OrderTypeValue;
  amountFen: number | undefined;
  value: number | undefined;
  onChange: (voucherId: number | undefined) => void;
}

/** 代金券 for a prepaid instance order (a new package, a renewal): the caller's unused vouchers that fit it, or none. */
export function VoucherSelect({ id, orderType, amountFen, value, onChange }: VoucherSelectProps) {
  const vouchers = useUnusedVouchersQuery();
  const fitting = (vouchers.data?.list ?? []).filter((voucher) => amountFen !== undefined && voucherFits(voucher, orderType, amountFen));
  return (
    <Select
      id={id}
      allowClear
      loading={vouchers.isPending}
      value={value}
      placeholder={vouchers.isPending ? T.loading : fitting.length === 0 ? T.none : T.placeholder(fitting.length)}
      disabled={fitting.length === 0}
      onChange={(chosen: number | undefined) => onChange(chosen)}
      options={fitting.map((voucher) => ({ value: voucher.id, label: T.option(voucher.name, formatYuan(voucher.amount)) }))}
    />
  );
}
