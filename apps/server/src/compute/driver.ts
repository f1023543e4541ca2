/**
 * The contract between the platform and the machines (docs/compute.md maps it onto Kubernetes and
 * Docker). The database holds what users asked for; the reconciler calls these methods until what the
 * driver observes matches. Every call is idempotent and keyed by the instance id, so repeating one after
 * a crash or a timeout is always safe; none of them waits for a transition to finish.
 */

/** Everything a machine needs to exist: the instance's id, where, with what, and its disks. */
export interface MachineSpec {
  instanceId: string;
  hostId: string;
  /** GPUs to attach when it starts; 0 is no-GPU mode. */
  gpuNum: number;
  /** A public image id, or the uid of a private image `saveImage` made. */
  imageId: string;
  cpuCores: number;
  memoryGb: number;
  dataDiskGb: number;
  rootPassword: string;
  /**
   * OpenSSH public key lines (`type base64 [comment]`) for root's `~/.ssh/authorized_keys`: the keys
   * the instance's creator kept when the machine was created. Written once at create; later changes
   * to the user's keys leave existing machines alone.
   */
  authorizedKeys: string[];
  /**
   * A clone: the stopped machine whose system disk (and, with `copyData`, data disk) the new machine's
   * disks are copied from, instead of a fresh system disk from `imageId` and an empty data disk.
   */
  cloneFrom?: { instanceId: string; copyData: boolean };
  /**
   * An elastic container's workload: the machine starts sshd as always, then runs `command` with
   * `/bin/sh -c` and ends when it exits (never restarted); `observe` then reports `stopped` with the
   * exit code. Without a command the machine runs sshd until it is stopped, like an instance. `env`
   * is set for the command and for SSH sessions' processes alike.
   */
  command?: string | null;
  env?: Readonly<Record<string, string>>;
  /**
   * The owner's 文件存储 of the machine's region (its key, `<ownerId>/<zoneId>`), mounted read-write at
   * `/root/slg-fs` (FILE_STORAGE_MOUNT); null or absent: none. A `start` names it again, so a store
   * initialised after the machine was made is mounted from its next start on.
   */
  fileStorage?: string | null;
  /**
   * Datasets mounted read-only at `/root/slg-pub/<name>` (DATASET_MOUNT_ROOT): public ones and those the
   * instance named. Like the store, a `start` names them again and the machine gets that set from then on.
   */
  datasets?: readonly DatasetMount[];
}

/**
 * A dataset in a machine: read-only at `/root/slg-pub/<name>`, from `source`, its folder relative to
 * STORAGE_ROOT (`.public/<name>` for a public dataset, `.datasets/<snapshot>` for a shared one's snapshot).
 */
export interface DatasetMount {
  name: string;
  source: string;
}

/** What a `start` mounts: the 文件存储 (its key; null: none) and the datasets. */
export interface MachineMounts {
  fileStorage: string | null;
  datasets: readonly DatasetMount[];
}

/** What the driver sees a machine doing. */
export type MachineState =
  | 'absent'
  | 'creating'
  | 'stopped'
  | 'starting'
  | 'running'
  | 'stopping'
  | 'deleting'
  /** The system disk is being rebuilt from an image (`reinstall`); the machine is stopped when it is done. */
  | 'reinstalling'
  | 'error'
  | 'unreachable';

export interface ObservedMachine {
  state: MachineState;
  /** For error and unreachable: what went wrong, in words an operator (and the user) can act on. */
  reason?: string;
  /** When the current run began (state running): metering starts here, never while creating. */
  runningSince?: Date;
  /** GPUs attached to the running machine (0 in no-GPU mode). */
  gpuNum?: number;
  /** Where SSH reaches the machine. */
  ssh?: { host: string; port: number };
  /** The image (reference as given to `create` / `reinstall`) the system disk was built from. */
  image?: string;
  /** For stopped: the exit code of the machine's `command`, when the command ended by itself. */
  exitCode?: number;
  /**
   * The 文件存储 (its key) the machine has at `/root/slg-fs` — for running: in this run; null when it
   * has none (not asked for, or a driver that cannot mount one: Kubernetes without K8S_STORAGE_CLAIM).
   */
  fileStorage?: string | null;
  /** The datasets the machine has under `/root/slg-pub` (their names), for running machines of drivers that mount them. */
  datasets?: string[];
}

/** What the registry holds of an image `saveImage` was asked for; `absent` when it knows no such image. */
export type ImageState = 'saving' | 'ready' | 'failed' | 'absent';

export interface ObservedImage {
  state: ImageState;
  /** For ready: the image's size in GB (what the owner's quota counts). */
  sizeGb?: number;
  /** For failed: why, in words the user can act on. */
  reason?: string;
}

export interface ComputeDriver {
  readonly name: 'sim' | 'kubernetes' | 'docker';
  /**
   * How custom services are reached: `zone-gateway` — HTTP by host name through the zone's gateway,
   * TCP on a gateway port; `host-port` — both on the public port of the instance's own host.
   */
  readonly serviceRouting: 'zone-gateway' | 'host-port';
  /** The public ports custom services are given from (a Kubernetes cluster's node ports are a narrower range). */
  readonly publicPortRange: { min: number; max: number };
  /** Whether machines get the 文件存储 asked for at /root/slg-fs (Kubernetes: only with K8S_STORAGE_CLAIM); without, the views show none. */
  readonly mountsFileStorage: boolean;
  /** Creates the disks and the container from the image (root's password and authorized_keys set), then starts it with `spec.gpuNum` GPUs. */
  create(spec: MachineSpec): Promise<void>;
  /**
   * Starts a stopped machine with this many GPUs (0: no-GPU mode), this 文件存储 at `/root/slg-fs` (its
   * key; null: none) and these datasets under `/root/slg-pub`. Mounts other than the ones the machine
   * had are mounted from this start on.
   */
  start(instanceId: string, gpuNum: number, mounts: MachineMounts): Promise<void>;
  stop(instanceId: string): Promise<void>;
  /** Deletes the container and its disks: the data is gone. */
  destroy(instanceId: string): Promise<void>;
  /**
   * The last `lines` lines the machine's main process wrote (stdout and stderr interleaved): for an
   * elastic container, its command's output. '' for a machine that wrote nothing; refused with a
   * `DriverError` when the machine is unknown or its host cannot be asked.
   */
  logs(instanceId: string, lines: number): Promise<string>;
  /** Sets the root password inside the machine (for SSH). */
  setPassword(instanceId: string, password: string): Promise<void>;
  /**
   * Routes a port of the machine to the outside (a custom service), as `serviceRouting` says: through
   * the zone's gateway (HTTP by host name `<instanceId>-<port>.<zone>.<gateway>`, TCP by `publicPort`)
   * or on `publicPort` of the machine's host. Idempotent; setting the same port again replaces its protocol.
   */
  exposePort(instanceId: string, service: { port: number; protocol: 'http' | 'tcp'; publicPort: number | null }): Promise<void>;
  /** Removes a custom service route (an absent one is left alone). */
  unexposePort(instanceId: string, port: number): Promise<void>;
  /** What each machine is doing now; machines the driver does not know are `absent`. */
  observe(instanceIds: readonly string[]): Promise<Map<string, ObservedMachine>>;
  /**
   * Rebuilds the system disk of a stopped machine from `image` (a public image id, or the uid of a
   * private image `saveImage` made); the data disk is kept, the machine stays stopped. `requestedAt`
   * keys the request: a machine already rebuilt (or rebuilding) from `image` since then is left
   * alone, so repeating the call is safe. From the moment it returns, `observe` reports
   * `reinstalling` until the disk is rebuilt, then `stopped` with `image`.
   */
  reinstall(instanceId: string, image: string, requestedAt: Date): Promise<void>;
  /** Saves a stopped machine's system disk as image `imageUid` in the registry (an image already saving or saved under that uid is left alone). */
  saveImage(instanceId: string, imageUid: string): Promise<void>;
  /** What the registry holds of each image; images it does not know are `absent`. */
  observeImages(imageUids: readonly string[]): Promise<Map<string, ObservedImage>>;
  /** Deletes an image from the registry (an absent one is left alone); machines built from it keep running. */
  deleteImage(imageUid: string): Promise<void>;
  /**
   * Sets the data disk to `sizeGb` (the new total, not a delta): growing works running or stopped,
   * shrinking only while stopped and never below what is used (refused with a `DriverError` naming the
   * used size). A disk already of that size is left alone, so repeating the call is safe.
   */
  resizeDataDisk(instanceId: string, sizeGb: number): Promise<void>;
  /** GB used on each machine's data disk (the last measured value while a machine is stopped); machines the driver does not know are missing from the map. */
  dataDiskUsage(instanceIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Copies `path` (a file or directory on the data disk) from one machine's data disk to the same path
   * on another's, overwriting what is there; both machines may be running or stopped. Keyed by
   * `taskUid`: a copy already started under it is left alone. Refused with a `DriverError` when the
   * source holds nothing at `path`, the target's disk lacks the space (naming both sizes), or a host
   * fails (retryable when it cannot be asked).
   */
  copyData(taskUid: string, fromInstanceId: string, toInstanceId: string, path: string): Promise<void>;
  /** Where each copy stands; copies the driver does not know are `absent`. */
  observeCopies(taskUids: readonly string[]): Promise<Map<string, ObservedCopy>>;
  /**
   * Stops copy `taskUid`: what has landed on the target stays there, the rest is not copied, and
   * `observeCopies` reports it `cancelled` with the GB moved until then. A copy already stopped,
   * done, failed or unknown is left alone, so repeating the call is safe. Refused with a retryable
   * `DriverError` when the target's host cannot be asked.
   */
  cancelCopy(taskUid: string): Promise<void>;
}

/** Public ports of custom services on the zones' gateways and on Docker hosts. */
export const DEFAULT_PUBLIC_PORT_RANGE = { min: 30_000, max: 59_999 } as const;

/** What the machines report of a data copy. */
export interface ObservedCopy {
  state: 'running' | 'done' | 'failed' | 'cancelled' | 'absent';
  /** GB the copy moves in all, and GB moved so far (for cancelled: until it stopped; both 0 when absent). */
  totalGb: number;
  copiedGb: number;
  /** For failed: why, in words the user can act on. */
  reason?: string;
}

/** A refusal by the machines (host full, host failing): the reconciler records it on the instance. */
export class DriverError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
