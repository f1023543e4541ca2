import { AccountType, type PermissionMap, type Role } from '@slg/shared';
import type { DatabaseHandle } from '../../db/client.js';

/** The caller's row as the session check reads it. */
export interface CheckedSession {
  id: number;
  accountType: number;
  parentId: number | null;
  permissions: PermissionMap | null;
  roles: Role[];
  disabled: boolean;
  username: string | null;
  nickName: string;
  telephone: string | null;
  hasPassword: boolean;
  createdAt: Date;
  sharedMainBalance: boolean;
  revoked: boolean;
  /** Fen in the wallet the caller spends from, when asked for; else null. */
  balanceFen: number | null;
}

interface PendingCheck {
  userId: number;
  sessionId: string;
  withBalance: boolean;
  resolve: (row: CheckedSession | undefined) => void;
  reject: (error: unknown) => void;
}

interface SessionRow extends Omit<CheckedSession, 'createdAt'> {
  n: number;
  createdAtMs: number;
}

/** More checks than this in one turn of the event loop go out as several statements. */
const MAX_CHECKS_PER_STATEMENT = 256;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isSessionId(value: string): boolean {
  return UUID.test(value);
}

/** Statements of session checks at the database at once; checks asked for meanwhile wait and go out together. */
const MAX_STATEMENTS_IN_FLIGHT = 2;

/**
 * The per-request session check, batched: every check asked for during one turn of the event loop
 * goes to the database as ONE statement (a row per check, joined from arrays), sent once that turn's
 * requests have all arrived; while MAX_STATEMENTS_IN_FLIGHT are at the database, new checks gather
 * and go out together as soon as one returns. Each check still reads the database after its request
 * arrived, so a session revoked before that is refused on every replica, exactly as with one query
 * per request; under load one round trip serves many requests instead of one each (with a statement
 * per turn, most statements carried one or two checks and writing them was a quarter of the CPU).
 */
export class SessionChecks {
  private pending: PendingCheck[] = [];
  private inFlight = 0;
  private flushScheduled = false;

  constructor(private readonly database: DatabaseHandle) {}

  check(userId: number, sessionId: string, withBalance: boolean): Promise<CheckedSession | undefined> {
    if (!isSessionId(sessionId)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.pending.push({ userId, sessionId, withBalance, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.pending.length === 0 || this.inFlight >= MAX_STATEMENTS_IN_FLIGHT) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.pending.length > 0 && this.inFlight < MAX_STATEMENTS_IN_FLIGHT) {
      const batch = this.pending.splice(0, MAX_CHECKS_PER_STATEMENT);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.scheduleFlush();
      });
    }
  }

  private async run(batch: PendingCheck[]): Promise<void> {
    try {
      const rows = await runStatement(this.database, batch);
      const byPosition = new Map(rows.map((row) => [row.n, row]));
      batch.forEach((check, index) => {
        const row = byPosition.get(index + 1);
        check.resolve(row ? { ...row, createdAt: new Date(row.createdAtMs) } : undefined);
      });
    } catch (error) {
      for (const check of batch) check.reject(error);
    }
  }
}

/**
 * The statement, written out once and prepared on PostgreSQL: built through drizzle's column objects on
 * every batch, and planned by PostgreSQL for every batch, it cost more CPU than the request around it.
 * The arrays travel as comma-joined text (ids are integers, session ids checked UUIDs), which both
 * drivers pass the same way; every column is cast to a type both return as the same JavaScript value.
 * The paying wallet is the one payingWalletOf (billing/ledger.ts) decides: the main account's for a
 * sub-account that shares its balance.
 */
const SESSION_CHECK_SQL = `
  select checks.n::int as "n",
    u.id::float8 as "id",
    u.account_type::int as "accountType",
    u.parent_id::float8 as "parentId",
    u.permissions as "permissions",
    u.roles as "roles",
    u.disabled_at is not null as "disabled",
    u.username as "username",
    u.nick_name as "nickName",
    u.telephone as "telephone",
    u.password_hash is not null as "hasPassword",
    (extract(epoch from u.created_at) * 1000)::float8 as "createdAtMs",
    u.shared_main_balance as "sharedMainBalance",
    exists (select 1 from revoked_sessions r where r.family_id = checks.session_id) as "revoked",
    case when checks.with_balance
      then coalesce((select w.balance_fen from wallets w where w.account_id =
        case when u.account_type = ${AccountType.SUB} and u.shared_main_balance then u.parent_id else u.id end), 0)::float8
    end as "balanceFen"
  from unnest(
    string_to_array($1::text, ',')::int8[],
    string_to_array($2::text, ',')::uuid[],
    string_to_array($3::text, ',')::bool[]
  ) with ordinality as checks(user_id, session_id, with_balance, n)
  join users u on u.id = checks.user_id`;

function runStatement(database: DatabaseHandle, batch: PendingCheck[]): Promise<SessionRow[]> {
  const userIds = batch.map((check) => check.userId).join(',');
  const sessionIds = batch.map((check) => check.sessionId).join(',');
  const withBalance = batch.map((check) => (check.withBalance ? 't' : 'f')).join(',');
  return database.queryPrepared<SessionRow>('slg_session_check', SESSION_CHECK_SQL, [userIds, sessionIds, withBalance]);
}
