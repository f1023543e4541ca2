import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { cpuModels, gpuModels, zones } from './meta.js';
import type { DatasetMount } from '../../compute/driver.js';

const at = (name: string) => timestamp(name, { withTimezone: true });
const createdAt = () => at('created_at').notNull().defaultNow();
const updatedAt = () => at('updated_at').notNull().defaultNow();

/**
 * A GPU server of the fleet. Its GPUs and data-disk space are handed out by conditional updates of the
 * `*_allocated` counters (never read-then-write), and the CHECKs make over-allocation impossible even
 * for a buggy caller.
 */
export const hosts = pgTable(
  'hosts',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    zoneId: varchar('zone_id', { length: 32 })
      .notNull()
      .references(() => zones.id),
    gpuModelId: varchar('gpu_model_id', { length: 32 })
      .notNull()
      .references(() => gpuModels.id),
    cpuModelId: varchar('cpu_model_id', { length: 32 })
      .notNull()
      .references(() => cpuModels.id),
    gpuTotal: integer('gpu_total').notNull(),
    gpuAllocated: integer('gpu_allocated').notNull().default(0),
    cpuPerGpu: integer('cpu_per_gpu').notNull(),
    memoryGbPerGpu: integer('memory_gb_per_gpu').notNull(),
    /** The largest data disk one instance on this host may have. */
    dataDiskMaxGb: integer('data_disk_max_gb').notNull(),
    dataDiskTotalGb: integer('data_disk_total_gb').notNull(),
    dataDiskAllocatedGb: integer('data_disk_allocated_gb').notNull().default(0),
    cudaVersion: varchar('cuda_version', { length: 16 }).notNull(),
    driverVersion: varchar('driver_version', { length: 32 }).notNull(),
    /** Operator price overrides in fen per GPU (usage: per hour); null means the GPU model's price. */
    usagePriceFen: integer('usage_price_fen'),
    dayPriceFen: integer('day_price_fen'),
    weekPriceFen: integer('week_price_fen'),
    monthPriceFen: integer('month_price_fen'),
    enabled: boolean('enabled').notNull().default(true),
    /** Injected failure of the simulated fleet: `error` (operations fail) or `unreachable`. */
    simFault: varchar('sim_fault', { length: 16 }),
    simFaultReason: text('sim_fault_reason'),
    /** The host's Docker Engine (`unix:///…` or `tcp://host:2376`), for COMPUTE_DRIVER=docker; null on other drivers. */
    dockerUrl: varchar('docker_url', { length: 255 }),
    /** TLS client certificate, key and CA for a `tcp://` engine, as JSON sealed with AES-256-GCM (like root passwords). */
    dockerTlsSealed: text('docker_tls_sealed'),
    /** Where users reach the host's published ports (SSH); null: the host name of `dockerUrl`, or SSH_HOST for a socket. */
    publicAddress: varchar('public_address', { length: 255 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('hosts_market_idx').on(t.zoneId, t.gpuModelId).where(sql`${t.enabled}`),
    index('hosts_gpu_model_idx').on(t.gpuModelId).where(sql`${t.enabled}`),
    check('hosts_gpu_allocation', sql`${t.gpuAllocated} >= 0 and ${t.gpuAllocated} <= ${t.gpuTotal}`),
    check('hosts_disk_allocation', sql`${t.dataDiskAllocatedGb} >= 0 and ${t.dataDiskAllocatedGb} <= ${t.dataDiskTotalGb}`),
    check('hosts_sizes', sql`${t.gpuTotal} >= 0 and ${t.cpuPerGpu} > 0 and ${t.memoryGbPerGpu} > 0 and ${t.dataDiskMaxGb} > 0`),
  ],
);

/**
 * A rented container instance: `id` is the rentalId, `instanceId` the name people and machines use,
 * `uid` the rentalUid orders point at. `operation` is what the reconciler must still bring about.
 */
export const instances = pgTable(
  'instances',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceId: varchar('instance_id', { length: 32 }).notNull(),
    uid: uuid('uid').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The wallet that pays (as orders.wallet_id). */
    walletId: bigint('wallet_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: varchar('name', { length: 64 }).notNull(),
    hostId: varchar('host_id', { length: 32 })
      .notNull()
      .references(() => hosts.id),
    zoneId: varchar('zone_id', { length: 32 }).notNull(),
    gpuModelId: varchar('gpu_model_id', { length: 32 }).notNull(),
    gpuNum: integer('gpu_num').notNull(),
    /** GPUs taken from the host right now (0 after a pay-as-you-go power-off). */
    gpuHeld: integer('gpu_held').notNull().default(0),
    gpuMode: varchar('gpu_mode', { length: 8 }).notNull().default('gpu'),
    imageId: varchar('image_id', { length: 96 }).notNull(),
    chargingRuleId: smallint('charging_rule_id').notNull(),
    dataDiskGb: integer('data_disk_gb').notNull(),
    /** The data disk was resized here and the machine has not confirmed the size yet (disk-sync job). */
    dataDiskResizePending: boolean('data_disk_resize_pending').notNull().default(false),
    status: varchar('status', { length: 24 }).notNull(),
    /** Why the instance is in its state, when the platform put it there (arrears, a driver error…). */
    statusReason: text('status_reason'),
    operation: varchar('operation', { length: 16 }),
    operationMode: varchar('operation_mode', { length: 8 }),
    operationStartedAt: at('operation_started_at'),
    operationAttempts: integer('operation_attempts').notNull().default(0),
    /** A reconciler working on the operation holds it until then (one process at a time, taken over after a crash). */
    operationLeaseUntil: at('operation_lease_until'),
    /** What the operation works with: the image of a reset / switch_image, the private image id of a save_image. */
    operationArg: varchar('operation_arg', { length: 96 }),
    sshHost: varchar('ssh_host', { length: 128 }),
    sshPort: integer('ssh_port'),
    /** AES-256-GCM, key derived from the JWT secret: the owner can read it back. */
    rootPasswordEnc: text('root_password_enc').notNull(),
    /** The metered run in progress: when it started, its rate, what was settled of it. */
    runStartedAt: at('run_started_at'),
    runRateFen: integer('run_rate_fen').notNull().default(0),
    runChargedFen: bigint('run_charged_fen', { mode: 'number' }).notNull().default(0),
    /** The PLACED NEW_PURCHASE order of a pay-as-you-go instance: metered charges accrue on it. */
    usageOrderId: bigint('usage_order_id', { mode: 'number' }),
    poweredOffAt: at('powered_off_at'),
    /** A day / week / month package: when the prepaid time ends (null for pay-as-you-go). */
    expiresAt: at('expires_at'),
    /** Renew the package at expiry from the balance (else power off and fall back to pay-as-you-go). */
    autoRenew: boolean('auto_renew').notNull().default(false),
    /** Cash paid (vouchers excluded) for the package since it began: what switching to pay-as-you-go refunds from. */
    packagePaidFen: bigint('package_paid_fen', { mode: 'number' }).notNull().default(0),
    /** When the current package began (its used hours count from here). */
    packageStartedAt: at('package_started_at'),
    /**
     * What a switch to pay-as-you-go counts as the package's used time (`packageUsedFen`): its first
     * whole hours already priced at the usage rate of the most GPUs in force during each (fixed at a
     * GPU-count change), their price, and the most GPUs in force so far in the hour after them.
     */
    packagePricedHours: integer('package_priced_hours').notNull().default(0),
    packagePricedFen: bigint('package_priced_fen', { mode: 'number' }).notNull().default(0),
    packageNextHourMostGpus: integer('package_next_hour_most_gpus').notNull().default(0),
    /** A power-off the user scheduled (`POST /rental/power_off {at}`); cleared when it fires or is cancelled. */
    scheduledPowerOffAt: at('scheduled_power_off_at'),
    /**
     * The data disk beyond the free 50 GB is metered per GB per day like a run (docs/decisions.md
     * "Disk"): the daily rate, since when it runs, what was settled of it, and the PLACED EXPAND_DISK
     * order the settlements post to. A rate of 0 means nothing is metered.
     */
    diskRateFenPerDay: integer('disk_rate_fen_per_day').notNull().default(0),
    diskMeterStartedAt: at('disk_meter_started_at'),
    diskChargedFen: bigint('disk_charged_fen', { mode: 'number' }).notNull().default(0),
    diskOrderId: bigint('disk_order_id', { mode: 'number' }),
    /**
     * A clone: the instance whose disks it was made from, whether the data disk came along, and
     * whether the source is released once the clone runs (a move off a full host).
     */
    cloneSourceRowId: bigint('clone_source_row_id', { mode: 'number' }),
    cloneCopyData: boolean('clone_copy_data').notNull().default(false),
    cloneReleasesSource: boolean('clone_releases_source').notNull().default(false),
    /**
     * 保留实例: an instance off for AUTO_RELEASE_DAYS is kept instead of released while its disks'
     * storage is paid a day at a time; `retainedUntil` is the end of the last day paid, and the
     * PLACED order those days post to.
     */
    keepWhenOff: boolean('keep_when_off').notNull().default(false),
    retainedUntil: at('retained_until'),
    retentionOrderId: bigint('retention_order_id', { mode: 'number' }),
    releasedAt: at('released_at'),
    /**
     * 弹性部署: the deployment this container belongs to (null for a rented instance), the version of the
     * deployment's template it was made from, and the command and environment it runs.
     */
    deploymentRowId: bigint('deployment_row_id', { mode: 'number' }),
    templateVersion: integer('template_version'),
    command: text('command'),
    env: jsonb('env').$type<Record<string, string>>(),
    /** The exit code of the container's command, once it exited by itself. */
    exitCode: integer('exit_code'),
    /** Whether the machine's current run has the owner's 文件存储 of its region at `/root/slg-fs` (a store initialised later mounts at the next start). */
    fileStorageMounted: boolean('file_storage_mounted').notNull().default(false),
    /** The shared datasets named at create or clone (mounted read-only under /root/slg-pub with the public ones at each start). */
    datasetIds: jsonb('dataset_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    /** The dataset folders (relative to STORAGE_ROOT) the last create or power-on asked the machine to mount: a snapshot in use is never removed. */
    datasetSources: jsonb('dataset_sources').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** When and why the deployment let the container go (its run and billing are over; the release follows). */
    endedAt: at('ended_at'),
    endReason: text('end_reason'),
    /** What the container's runs cost from the wallet in all, closed runs only (the open run's is `runChargedFen`). */
    totalChargedFen: bigint('total_charged_fen', { mode: 'number' }).notNull().default(0),
    /**
     * 时长包: seconds of the open run paid from time packs (each drew `gpuNum` GPU-seconds), and the
     * second of the run up to which the packs were looked at; the wallet pays for the rest of the run.
     */
    runPackSeconds: bigint('run_pack_seconds', { mode: 'number' }).notNull().default(0),
    runPackCheckedSeconds: bigint('run_pack_checked_seconds', { mode: 'number' }).notNull().default(0),
    /** When the machine first ran, and the seconds its closed runs lasted (an elastic container's run time). */
    firstRunAt: at('first_run_at'),
    ranSeconds: bigint('ran_seconds', { mode: 'number' }).notNull().default(0),
    /** Seconds of closed runs time packs paid for. */
    totalPackSeconds: bigint('total_pack_seconds', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('instances_instance_id_key').on(t.instanceId),
    index('instances_deployment_idx').on(t.deploymentRowId, t.createdAt).where(sql`${t.deploymentRowId} is not null`),
    index('instances_deployment_live_idx').on(t.deploymentRowId).where(sql`${t.deploymentRowId} is not null and ${t.endedAt} is null`),
    index('instances_elastic_running_idx').on(t.walletId, t.gpuModelId).where(sql`${t.deploymentRowId} is not null and ${t.runStartedAt} is not null`),
    uniqueIndex('instances_uid_key').on(t.uid),
    index('instances_owner_created_idx').on(t.ownerId, t.createdAt),
    index('instances_host_idx').on(t.hostId),
    index('instances_operation_idx').on(t.operationStartedAt).where(sql`${t.operation} is not null`),
    index('instances_metered_idx').on(t.walletId).where(sql`${t.runStartedAt} is not null`),
    // What a wallet runs, for the balance-cover check of a create or power-on.
    index('instances_wallet_live_idx').on(t.walletId).where(sql`${t.releasedAt} is null`),
    index('instances_powered_off_idx').on(t.poweredOffAt).where(sql`${t.status} = 'PoweredOff' and ${t.releasedAt} is null`),
    index('instances_expiry_idx').on(t.expiresAt).where(sql`${t.expiresAt} is not null and ${t.releasedAt} is null`),
    index('instances_disk_meter_idx').on(t.diskMeterStartedAt).where(sql`${t.diskMeterStartedAt} is not null`),
    index('instances_scheduled_off_idx').on(t.scheduledPowerOffAt).where(sql`${t.scheduledPowerOffAt} is not null`),
    index('instances_disk_resize_pending_idx').on(t.id).where(sql`${t.dataDiskResizePending}`),
    // The machines running now: the simulated fleet's /metrics/sim-fleet reads them at every scrape.
    index('instances_running_idx').on(t.id).where(sql`${t.status} in ('PoweredOn', 'PoweredOnNoGPU') and ${t.releasedAt} is null`),
    check('instances_gpu', sql`${t.gpuNum} >= 1 and ${t.gpuHeld} >= 0 and ${t.gpuHeld} <= ${t.gpuNum}`),
    check('instances_run', sql`${t.runChargedFen} >= 0 and ${t.runRateFen} >= 0`),
    check('instances_run_pack', sql`${t.runPackSeconds} >= 0 and ${t.runPackSeconds} <= ${t.runPackCheckedSeconds}`),
  ],
);

/** Every transition of an instance (rental events, `/meta/rental_event_type`). */
export const instanceEvents = pgTable(
  'instance_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceRowId: bigint('instance_row_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id),
    type: varchar('type', { length: 32 }).notNull(),
    fromStatus: varchar('from_status', { length: 24 }),
    toStatus: varchar('to_status', { length: 24 }),
    detail: text('detail'),
    /** Who asked for it; null when the platform did (metering, arrears, the reconciler). */
    actorId: bigint('actor_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('instance_events_instance_idx').on(t.instanceRowId, t.createdAt)],
);

/**
 * The simulated data centre's own truth about its containers. Only the sim driver reads and writes it:
 * the platform learns what happened by observing, exactly as it would from Kubernetes or Docker.
 */
export const simMachines = pgTable('sim_machines', {
  instanceId: varchar('instance_id', { length: 32 }).primaryKey(),
  hostId: varchar('host_id', { length: 32 }).notNull(),
  state: varchar('state', { length: 16 }).notNull(),
  gpuNum: integer('gpu_num').notNull(),
  imageId: varchar('image_id', { length: 96 }).notNull(),
  dataDiskGb: integer('data_disk_gb').notNull(),
  /** When the transition in progress completes. */
  readyAt: at('ready_at').notNull(),
  runningSince: at('running_since'),
  sshPort: integer('ssh_port').notNull(),
  /** The OpenSSH public keys written to the machine's authorized_keys when it was created. */
  authorizedKeys: text('authorized_keys').array().notNull().default(sql`'{}'::text[]`),
  /** An elastic container's command: it exits (with `exitCode`) SIM_JOB_SECONDS after it started running. */
  command: text('command'),
  exitCode: integer('exit_code'),
  /** The 文件存储 (its key, `<ownerId>/<zoneId>`) the machine's current run has at `/root/slg-fs`. */
  fileStorage: varchar('file_storage', { length: 80 }),
  /** The datasets the current run has under /root/slg-pub. */
  datasets: jsonb('datasets').$type<DatasetMount[]>().notNull().default(sql`'[]'::jsonb`),
  /** What the data disk holds (GB): grows with use in the simulation, and is what a shrink may not go below. */
  dataDiskUsedGb: integer('data_disk_used_gb').notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * The Docker driver's own record of each machine it made: where it lives, the port SSH is published on
 * (unique per host), the image its system disk is (re)created from, and whether it should be running.
 * Docker itself is the truth about containers (found by the `slg.io/instance-id` label); this row is
 * what survives when a container is re-created (GPU change, no-GPU mode, reset) or a crash falls
 * between removing and creating one.
 */
export const dockerMachines = pgTable(
  'docker_machines',
  {
    instanceId: varchar('instance_id', { length: 32 }).primaryKey(),
    hostId: varchar('host_id', { length: 32 }).notNull(),
    sshPort: integer('ssh_port').notNull(),
    /** The image the next container is created from: the public image's reference, a private image, or the committed system disk. */
    systemImage: varchar('system_image', { length: 255 }).notNull(),
    /** The image (as the platform names it) the system disk was first built from, reported by observe. */
    imageId: varchar('image_id', { length: 96 }).notNull(),
    dataDiskGb: integer('data_disk_gb').notNull(),
    /** `running` or `stopped`: what the platform last asked for; a container that exited while it should run has failed. */
    desired: varchar('desired', { length: 16 }).notNull(),
    /** The reinstall (reset / switch image) last carried out, keyed by when it was asked for. */
    reinstalledFor: at('reinstalled_for'),
    /** An elastic container's command and environment: it runs the command after sshd and ends with it (never restarted). */
    command: text('command'),
    env: jsonb('env').$type<Record<string, string>>(),
    /** The 文件存储 (its key, `<ownerId>/<zoneId>`) bound at `/root/slg-fs` into the current container; a start with another recreates it. */
    fileStorage: varchar('file_storage', { length: 80 }),
    /** The datasets bound read-only under /root/slg-pub into the current container; a start with others recreates it. */
    datasets: jsonb('datasets').$type<DatasetMount[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('docker_machines_host_port_key').on(t.hostId, t.sshPort)],
);

/** Which GPU index of a host each Docker machine is pinned to: the primary key makes a GPU impossible to hand out twice. */
export const dockerGpuClaims = pgTable(
  'docker_gpu_claims',
  {
    hostId: varchar('host_id', { length: 32 }).notNull(),
    gpuIndex: integer('gpu_index').notNull(),
    instanceId: varchar('instance_id', { length: 32 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hostId, t.gpuIndex] }), index('docker_gpu_claims_instance_idx').on(t.instanceId)],
);

/** Images the simulated data centre is saving or keeps (a registry's truth, seen only by the sim driver). */
export const simImages = pgTable('sim_images', {
  uid: uuid('uid').primaryKey(),
  instanceId: varchar('instance_id', { length: 32 }).notNull(),
  state: varchar('state', { length: 16 }).notNull(),
  sizeGb: real('size_gb').notNull(),
  readyAt: at('ready_at').notNull(),
  updatedAt: updatedAt(),
});

/**
 * A user's own image, saved from an instance's system disk. `imageId` (`img-…`) is what instances and
 * the API name; `uid` is the imageUId sharing names. `sizeGb` counts against the 30 GB free per
 * account once it is ready. Deleting sets `deletedAt` (instances that still run on it keep running).
 */
export const privateImages = pgTable(
  'private_images',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    imageId: varchar('image_id', { length: 32 }).notNull(),
    uid: uuid('uid').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: varchar('name', { length: 64 }).notNull(),
    /** The instance it was saved from and the image that instance ran (framework, CUDA come from it). */
    sourceInstanceRowId: bigint('source_instance_row_id', { mode: 'number' }),
    baseImageId: varchar('base_image_id', { length: 96 }).notNull(),
    cuda: varchar('cuda', { length: 16 }).notNull(),
    sizeGb: real('size_gb').notNull().default(0),
    /** saving → ready, or failed (with statusReason). */
    status: varchar('status', { length: 16 }).notNull(),
    statusReason: text('status_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('private_images_image_id_key').on(t.imageId),
    uniqueIndex('private_images_uid_key').on(t.uid),
    uniqueIndex('private_images_owner_name_key').on(t.ownerId, t.name).where(sql`${t.deletedAt} is null`),
    index('private_images_owner_idx').on(t.ownerId, t.createdAt),
    index('private_images_saving_idx').on(t.createdAt).where(sql`${t.status} = 'saving'`),
  ],
);

/** A private image shared with another account, which may then create instances from it (it is not theirs to rename or delete). */
export const imageShares = pgTable(
  'image_shares',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    imageRowId: bigint('image_row_id', { mode: 'number' })
      .notNull()
      .references(() => privateImages.id),
    recipientId: bigint('recipient_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('image_shares_image_recipient_key').on(t.imageRowId, t.recipientId), index('image_shares_recipient_idx').on(t.recipientId, t.createdAt)],
);

/** One row per periodic job: a process runs a tick only after claiming the lease (several replicas, one run). */
export const jobLeases = pgTable('job_leases', {
  name: varchar('name', { length: 64 }).primaryKey(),
  holder: varchar('holder', { length: 64 }).notNull(),
  leaseUntil: at('lease_until').notNull(),
  lastRunAt: at('last_run_at'),
});

/** What the platform told a user (console notice, and SMS where it matters); at most once per dedupe key. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The user whose resource it is about (a sub-account sees the notifications of its own resources). */
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** Who gets the SMS (the holder of the paying wallet); null for kinds without SMS. */
    recipientId: bigint('recipient_id', { mode: 'number' }).references(() => users.id),
    kind: varchar('kind', { length: 32 }).notNull(),
    title: varchar('title', { length: 128 }).notNull(),
    body: text('body').notNull(),
    instanceRowId: bigint('instance_row_id', { mode: 'number' }),
    dedupeKey: varchar('dedupe_key', { length: 128 }).notNull(),
    /** null: no SMS for this kind; pending / sent / failed otherwise. */
    smsStatus: varchar('sms_status', { length: 16 }),
    createdAt: createdAt(),
    readAt: at('read_at'),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_key').on(t.dedupeKey),
    index('notifications_owner_idx').on(t.ownerId, t.createdAt),
    index('notifications_unread_idx').on(t.ownerId, t.creatorId).where(sql`${t.readAt} is null`),
    index('notifications_sms_pending_idx').on(t.createdAt).where(sql`${t.smsStatus} = 'pending'`),
  ],
);

/** An SSH public key a user keeps: every instance they create afterwards gets it in authorized_keys. */
export const sshKeys = pgTable(
  'ssh_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: varchar('name', { length: 64 }).notNull(),
    /** `type base64 [comment]`, normalised to one line. */
    publicKey: text('public_key').notNull(),
    /** `SHA256:…` as `ssh-keygen -l` prints it. */
    fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
    keyType: varchar('key_type', { length: 32 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ssh_keys_creator_name_key').on(t.creatorId, t.name),
    uniqueIndex('ssh_keys_creator_fingerprint_key').on(t.creatorId, t.fingerprint),
  ],
);

/** A stock alert: tell the user once when `gpuNum` GPUs of a model are free on one host of a zone. */
export const stockSubscriptions = pgTable(
  'stock_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    zoneId: varchar('zone_id', { length: 32 })
      .notNull()
      .references(() => zones.id),
    gpuModelId: varchar('gpu_model_id', { length: 32 })
      .notNull()
      .references(() => gpuModels.id),
    gpuNum: integer('gpu_num').notNull(),
    createdAt: createdAt(),
    /** When the alert fired (it fires once); null while waiting. */
    notifiedAt: at('notified_at'),
  },
  (t) => [
    uniqueIndex('stock_subscriptions_waiting_key')
      .on(t.creatorId, t.zoneId, t.gpuModelId, t.gpuNum)
      .where(sql`${t.notifiedAt} is null`),
    index('stock_subscriptions_waiting_idx').on(t.zoneId, t.gpuModelId).where(sql`${t.notifiedAt} is null`),
    index('stock_subscriptions_owner_idx').on(t.ownerId, t.createdAt),
    check('stock_subscriptions_gpu', sql`${t.gpuNum} >= 1`),
  ],
);

/**
 * A custom service port of an instance (自定义服务): HTTP ports are reached at their own https host name,
 * TCP ports at a public port of the zone's gateway, unique per zone.
 */
export const instancePorts = pgTable(
  'instance_ports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceRowId: bigint('instance_row_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id),
    zoneId: varchar('zone_id', { length: 32 }).notNull(),
    /** The port the service listens on inside the instance. */
    port: integer('port').notNull(),
    /** 1 http, 2 tcp. */
    protocol: smallint('protocol').notNull(),
    /** The public port the service is reached on: a port of the zone's gateway (TCP; HTTP goes by host name there) or of the instance's host (Docker). Null on rows from before every service got one. */
    publicPort: integer('public_port'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('instance_ports_instance_port_key').on(t.instanceRowId, t.port),
    uniqueIndex('instance_ports_zone_public_key').on(t.zoneId, t.publicPort),
    check('instance_ports_port', sql`${t.port} between 1 and 65535 and ${t.protocol} in (1, 2)`),
  ],
);

/**
 * 跨实例拷贝: copying a path of one instance's data disk to another's. One copy at a time into an
 * instance (a partial unique index); the driver does the copying and reports progress.
 */
export const copyTasks = pgTable(
  'copy_tasks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: uuid('uid').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    fromInstanceRowId: bigint('from_instance_row_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id),
    toInstanceRowId: bigint('to_instance_row_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id),
    path: varchar('path', { length: 512 }).notNull(),
    /** running → done, failed (statusReason) or cancelled by the user. */
    status: varchar('status', { length: 16 }).notNull(),
    statusReason: text('status_reason'),
    totalGb: real('total_gb').notNull().default(0),
    copiedGb: real('copied_gb').notNull().default(0),
    /** 0–100. */
    progress: smallint('progress').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    uniqueIndex('copy_tasks_uid_key').on(t.uid),
    uniqueIndex('copy_tasks_running_target_key').on(t.toInstanceRowId).where(sql`${t.status} = 'running'`),
    index('copy_tasks_running_idx').on(t.createdAt).where(sql`${t.status} = 'running'`),
    index('copy_tasks_from_idx').on(t.fromInstanceRowId, t.createdAt),
    index('copy_tasks_to_idx').on(t.toInstanceRowId, t.createdAt),
    check('copy_tasks_progress', sql`${t.progress} between 0 and 100`),
  ],
);
