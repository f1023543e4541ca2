import { sql, type SQL } from 'drizzle-orm';
import { fenToYuanString } from '@slg/shared';
import type { Bill, LedgerEntry } from '@slg/shared/views/billing';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { offsetOf, pageOf, type PageQuery } from '../../http/pagination.js';

export interface TimeRange {
  startTime?: string | undefined;
  endTime?: string | undefined;
}

/** The answers' shapes: the schemas in packages/shared (views/billing), which the console reads too. */
export type LedgerEntryView = LedgerEntry;
export type BillView = Bill;

const timeFilter = (column: SQL, range: TimeRange): SQL[] => [
  ...(range.startTime ? [sql`${column} >= ${new Date(range.startTime)}`] : []),
  ...(range.endTime ? [sql`${column} < ${new Date(range.endTime)}`] : []),
];

const toIso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** A China hour's metered charges of one instance: its description, the hour, and how many settlements. */
export function meteredBillTitle(description: string, firstSettlement: Date, settlements: number): string {
  const hour = new Date(firstSettlement.getTime() + 8 * 3600 * 1000).getUTCHours();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${description} ${pad(hour)}:00-${pad((hour + 1) % 24)}:00（${settlements}次结算）`;
}

/** The money statements of one wallet: 收支明细 (every entry) and 账单明细 (what was bought). */
export class StatementService {
  constructor(private readonly db: Database) {}

  async entries(
    walletId: number,
    filter: PageQuery & TimeRange & { incomeType?: 'INCOME' | 'EXPENSE' | undefined; type?: string | undefined },
  ) {
    const conditions = [
      sql`e.wallet_id = ${walletId}`,
      ...(filter.incomeType === 'INCOME' ? [sql`e.amount_fen > 0`] : []),
      ...(filter.incomeType === 'EXPENSE' ? [sql`e.amount_fen < 0`] : []),
      ...(filter.type ? [sql`t.type = ${filter.type}`] : []),
      ...timeFilter(sql`e.created_at`, filter),
    ];
    const where = sql.join(conditions, sql` and `);
    const [rows, totals] = await Promise.all([
      this.db.execute(sql`
        select e.id, e.transaction_id, t.type, t.channel, e.amount_fen, e.balance_after_fen, t.description,
               o.order_no, t.recharge_id, e.created_at
        from ledger_entries e
        join ledger_transactions t on t.id = e.transaction_id
        left join orders o on o.id = t.order_id
        where ${where}
        order by e.created_at desc, e.id desc
        limit ${filter.pageSize} offset ${offsetOf(filter)}`),
      this.db.execute(sql`
        select count(*) as total from ledger_entries e join ledger_transactions t on t.id = e.transaction_id where ${where}`),
    ]);
    type Row = {
      id: number | string;
      transaction_id: number | string;
      type: string;
      channel: string;
      amount_fen: number | string;
      balance_after_fen: number | string;
      description: string;
      order_no: string | null;
      recharge_id: string | null;
      created_at: Date | string;
    };
    const list: LedgerEntryView[] = rowsOf<Row>(rows).map((row) => ({
      id: Number(row.id),
      transactionId: Number(row.transaction_id),
      type: row.type,
      channel: row.channel,
      incomeType: Number(row.amount_fen) > 0 ? 'INCOME' : 'EXPENSE',
      amount: Number(row.amount_fen),
      balanceAfter: Number(row.balance_after_fen),
      description: row.description,
      orderNo: row.order_no,
      rechargeId: row.recharge_id,
      createdAt: toIso(row.created_at),
    }));
    return pageOf(list, Number(rowsOf<{ total: number | string }>(totals)[0]?.total ?? 0), filter);
  }

  /**
   * Consumption and refunds of the wallet, each with its cash and voucher parts. A purchase paid
   * entirely by voucher has no wallet entry, so transactions are found through the wallet's entries
   * and through the orders the wallet pays for. Metered charges of a pay-as-you-go order (settled every
   * minute) are one row per order, China hour and description (instance name and mode): 60 settlements
   * an hour would bury everything else; daily storage charges (NEW_STORAGE) stay one row each, their
   * description naming the period. 收支明细 keeps every settlement.
   */
  private billsQuery(walletId: number, filter: TimeRange & { orderType?: string | undefined }, page?: PageQuery): SQL {
    const conditions = [
      sql`t.type in ('CONSUME', 'REFUND')`,
      ...(filter.orderType ? [sql`o.type = ${filter.orderType}`] : []),
      ...timeFilter(sql`t.created_at`, filter),
    ];
    return sql`
      with mine as (
        select transaction_id as id from ledger_entries where wallet_id = ${walletId}
        union
        select t.id from ledger_transactions t join orders o on o.id = t.order_id where o.wallet_id = ${walletId}
      ),
      per_transaction as (
        select t.id, t.description, t.created_at, o.order_no, o.type as order_type, o.billing_type,
               coalesce(sum(e.amount_fen) filter (where e.wallet_id = ${walletId}), 0) as wallet_amount,
               coalesce(sum(e.amount_fen) filter (where e.platform_account = 'vouchers'), 0) as voucher_amount,
               -- China is UTC+8 all year, so hours since the epoch are China hours too.
               -- NEW_STORAGE charges (文件存储, 保留实例) are settled a day at a time: one row each, titled by its period.
               case when t.type = 'CONSUME' and o.billing_type = 'USAGE' and o.type <> 'NEW_STORAGE'
                    then 'metered:' || o.id || ':' || floor(extract(epoch from t.created_at) / 3600)::bigint
                    else 'transaction:' || t.id end as bill_key
        from mine
        join ledger_transactions t on t.id = mine.id
        join ledger_entries e on e.transaction_id = t.id
        left join orders o on o.id = t.order_id
        where ${sql.join(conditions, sql` and `)}
        group by t.id, o.id
      )
      select max(id) as id, description, max(created_at) as created_at, min(created_at) as first_at, order_no, order_type, billing_type,
             bill_key like 'metered:%' as metered, count(*) as settlements,
             sum(wallet_amount) as wallet_amount, sum(voucher_amount) as voucher_amount,
             count(*) over () as total
      from per_transaction
      group by bill_key, description, order_no, order_type, billing_type
      order by max(created_at) desc, max(id) desc
      ${page ? sql`limit ${page.pageSize} offset ${offsetOf(page)}` : sql`limit 10000`}`;
  }

  private async billRows(walletId: number, filter: TimeRange & { orderType?: string | undefined }, page?: PageQuery) {
    type Row = {
      id: number | string;
      description: string;
      created_at: Date | string;
      first_at: Date | string;
      order_no: string | null;
      order_type: string | null;
      billing_type: string | null;
      metered: boolean;
      settlements: number | string;
      wallet_amount: number | string;
      voucher_amount: number | string;
      total: number | string;
    };
    const rows = rowsOf<Row>(await this.db.execute(this.billsQuery(walletId, filter, page)));
    const list: BillView[] = rows.map((row) => {
      // Entries are signed from the wallet's side: paying is negative, so a charge shows positive.
      const cashAmount = -Number(row.wallet_amount);
      const voucherAmount = -Number(row.voucher_amount);
      return {
        id: Number(row.id),
        orderNo: row.order_no,
        orderType: row.order_type,
        billingType: row.billing_type,
        title: row.metered ? meteredBillTitle(row.description, new Date(row.first_at), Number(row.settlements)) : row.description,
        amount: cashAmount + voucherAmount,
        cashAmount,
        voucherAmount,
        createdAt: toIso(row.created_at),
      };
    });
    return { list, total: Number(rows[0]?.total ?? 0) };
  }

  async bills(walletId: number, filter: PageQuery & TimeRange & { orderType?: string | undefined }) {
    const { list, total } = await this.billRows(walletId, filter, filter);
    if (list.length === 0 && filter.page > 1) {
      // Past the last page the window count is unknown; ask for the first page's total.
      const first = await this.billRows(walletId, filter, { page: 1, pageSize: 1 });
      return pageOf(list, first.total, filter);
    }
    return pageOf(list, total, filter);
  }

  async allBills(walletId: number, filter: TimeRange & { orderType?: string | undefined }): Promise<BillView[]> {
    return (await this.billRows(walletId, filter)).list;
  }
}

const csvCell = (value: string | number | null): string => {
  const text = value === null ? '' : String(value);
  // Quote everything; neutralise spreadsheet formulas.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

export function billsCsv(bills: BillView[], labels: { orderType: (value: string | null) => string; billingType: (value: string | null) => string }): string {
  const header = ['时间', '订单号', '订单类型', '计费方式', '说明', '金额（元）', '余额支付（元）', '代金券抵扣（元）'];
  const lines = bills.map((bill) =>
    [
      new Date(bill.createdAt).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false }),
      bill.orderNo,
      labels.orderType(bill.orderType),
      labels.billingType(bill.billingType),
      bill.title,
      fenToYuanString(bill.amount),
      fenToYuanString(bill.cashAmount),
      fenToYuanString(bill.voucherAmount),
    ]
      .map(csvCell)
      .join(','),
  );
  return `\uFEFF${[header.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`;
}
