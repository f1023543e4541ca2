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
}

export interface ComputeDriver {
  readonly name: 'sim' | 'kubernetes' | 'docker';
  /** Creates the disks and the container from the image (root's password and authorized_keys set), then starts it with `spec.gpuNum` GPUs. */
  create(spec: MachineSpec): Promise<void>;
  /** Starts a stopped machine with this many GPUs (0: no-GPU mode). */
  start(instanceId: string, gpuNum: number): Promise<void>;
  stop(instanceId: string): Promise<void>;
  /** Deletes the container and its disks: the data is gone. */
  destroy(instanceId: string): Promise<void>;
  /** Sets the root password inside the machine (for SSH). */
  setPassword(instanceId: string, password: string): Promise<void>;
  /** What each machine is doing now; machines the driver does not know are `absent`. */
  observe(instanceIds: readonly string[]): Promise<Map<string, ObservedMachine>>;
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
