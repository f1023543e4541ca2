import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';

/**
 * Adds `count` running pay-as-you-go instances spread over `walletCount` new accounts (each with a
 * wallet holding ¥1,000,000 and a PLACED usage order per instance), started up to an hour before `now`
 * at 198 fen per hour: what one metering pass meets on a busy platform. Written by three set-based
 * statements, so 10,000 instances take a second or two.
 */
export async function seedRunningInstances(db: Database, count: number, walletCount: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.execute(sql`
    with new_users as (
      insert into users (nick_name) select 'bench-' || g from generate_series(1, ${walletCount}) g returning id
    )
    insert into wallets (account_id, balance_fen) select id, 100000000 from new_users`);
  await db.execute(sql`
    with accounts as (
      select id, row_number() over (order by id) - 1 as n from users where nick_name like 'bench-%'
    )
    insert into orders (order_no, owner_id, creator_id, wallet_id, type, status, billing_type, title, items, original_amount_fen, resource_type, resource_id)
    select 'BENCH' || lpad(g::text, 10, '0'), a.id, a.id, a.id, 'NEW_PURCHASE', 'PLACED', 'USAGE', '压测实例', '[]'::jsonb, 0, 'instance', 'bench-' || g
    from generate_series(1, ${count}) g join accounts a on a.n = g % ${walletCount}`);
  await db.execute(sql`
    insert into instances (instance_id, uid, owner_id, creator_id, wallet_id, name, host_id, zone_id, gpu_model_id, gpu_num, gpu_held,
                           image_id, charging_rule_id, data_disk_gb, status, root_password_enc, run_started_at, run_rate_fen, usage_order_id)
    select o.resource_id, gen_random_uuid(), o.owner_id, o.creator_id, o.wallet_id, '压测实例', h.id, h.zone_id, h.gpu_model_id, 1, 1,
           'pytorch-2.5.1-py3.12-cu124', 1, 50, 'PoweredOn', 'bench', ${at}::timestamptz - make_interval(secs => o.id % 3600), 198, o.id
    from orders o cross join (select id, zone_id, gpu_model_id from hosts order by id limit 1) h
    where o.order_no like 'BENCH%'`);
  await db.execute(sql`analyze instances`);
  await db.execute(sql`analyze wallets`);
}

/**
 * Keeps the server's own passes of these jobs away while the bench times its own: the bench takes
 * their leases (as another server process would) for `minutes`. Without it the server's
 * watch-instances job would find the seeded instances without machines and stop them.
 */
export async function holdJobLeases(db: Database, names: readonly string[], minutes: number): Promise<void> {
  for (const name of names) {
    await db.execute(sql`
      insert into job_leases (name, holder, lease_until, last_run_at)
      values (${name}, 'bench', now() + make_interval(mins => ${minutes}), now())
      on conflict (name) do update set holder = 'bench', lease_until = excluded.lease_until`);
  }
}

/**
 * Adds `count` running elastic containers (one deployment per wallet, `walletCount` new accounts),
 * each wallet with a 1,000-hour time pack of its containers' GPU model: what the metering pass meets
 * when every container draws a pack down before its wallet.
 */
export async function seedElasticContainers(db: Database, count: number, walletCount: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.execute(sql`
    with new_users as (
      insert into users (nick_name) select 'elastic-bench-' || g from generate_series(1, ${walletCount}) g returning id
    )
    insert into wallets (account_id, balance_fen) select id, 100000000 from new_users`);
  await db.execute(sql`
    with accounts as (select id from users where nick_name like 'elastic-bench-%')
    insert into elastic_deployments (uid, owner_id, creator_id, wallet_id, name, type, status, image_id, gpu_num, replica_num, parallelism_num)
    select gen_random_uuid(), a.id, a.id, a.id, 'bench-' || a.id, 'REPLICA_SET', 'RUNNING', 'pytorch-2.5.1-py3.12-cu124', 1, ${Math.ceil(count / walletCount)}, 1
    from accounts a`);
  await db.execute(sql`
    insert into orders (order_no, owner_id, creator_id, wallet_id, type, status, billing_type, title, items, original_amount_fen, resource_type, resource_id)
    select 'EBENCH' || lpad(d.id::text, 10, '0'), d.owner_id, d.owner_id, d.wallet_id, 'NEW_FLEXIBLE_DEPLOYMENT', 'PLACED', 'USAGE', '压测弹性部署', '[]'::jsonb, 0, 'ELASTIC', d.uid::text
    from elastic_deployments d where d.name like 'bench-%'`);
  await db.execute(sql`update elastic_deployments d set order_id = o.id from orders o where o.order_no = 'EBENCH' || lpad(d.id::text, 10, '0')`);
  await db.execute(sql`
    with host as (select id, zone_id, gpu_model_id from hosts order by id limit 1),
    deployments as (select d.*, row_number() over (order by d.id) - 1 as n from elastic_deployments d where d.name like 'bench-%')
    insert into instances (instance_id, uid, owner_id, creator_id, wallet_id, name, host_id, zone_id, gpu_model_id, gpu_num, gpu_held,
                           image_id, charging_rule_id, data_disk_gb, status, root_password_enc, run_started_at, run_rate_fen, usage_order_id,
                           deployment_row_id, template_version)
    select 'slg-eb' || lpad(g::text, 8, '0'), gen_random_uuid(), d.owner_id, d.owner_id, d.wallet_id, '压测容器', h.id, h.zone_id, h.gpu_model_id, 1, 1,
           'pytorch-2.5.1-py3.12-cu124', 1, 50, 'PoweredOn', 'bench', ${at}::timestamptz - make_interval(secs => g % 3600), 198, d.order_id, d.id, 1
    from generate_series(1, ${count}) g join deployments d on d.n = g % ${walletCount} cross join host h`);
  await db.execute(sql`
    insert into time_packs (owner_id, creator_id, wallet_id, gpu_model_id, hours, valid_days, total_seconds, balance_seconds, status, expires_at, paid_fen)
    select d.owner_id, d.owner_id, d.wallet_id, h.gpu_model_id, 1000, 30, 3600000, 3600000, 'IN_USE', ${at}::timestamptz + interval '30 days', 198000
    from elastic_deployments d cross join (select gpu_model_id from hosts order by id limit 1) h where d.name like 'bench-%'`);
  await db.execute(sql`analyze instances`);
  await db.execute(sql`analyze time_packs`);
}
