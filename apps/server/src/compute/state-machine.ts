import { INSTANCE_OPERATIONS, INSTANCE_STATUSES, type InstanceOperation, type InstanceStatusValue } from '@slg/shared';
import { AppError } from '../http/errors.js';

/**
 * The instance state machine (DESIGN §7), in one place. Every API operation and every job asks
 * `assertAllowed` before it changes an instance; what happens once the machines confirm is in the
 * reconciler. An operation in another state is refused with a message naming the state.
 */
export type UserAction = 'power_on' | 'power_off' | 'release' | 'rename' | 'update_pwd' | 'reveal_pwd';

const ACTION_LABELS: Record<UserAction, string> = {
  power_on: '开机',
  power_off: '关机',
  release: '释放',
  rename: '修改名称',
  update_pwd: '修改密码',
  reveal_pwd: '查看密码',
};

/** States from which each action may start (and then only with no operation in flight, unless said). */
const ALLOWED_FROM: Record<UserAction, readonly InstanceStatusValue[]> = {
  power_on: ['PoweredOff', 'Error'],
  power_off: ['PoweredOn', 'PoweredOnNoGPU'],
  release: ['PoweredOff', 'Error'],
  rename: ['CreationStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
  update_pwd: ['PoweredOn', 'PoweredOnNoGPU'],
  reveal_pwd: ['CreationStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
};

/** Actions that do not touch the machine and may run while an operation is in flight. */
const ALONGSIDE_OPERATIONS: ReadonlySet<UserAction> = new Set(['rename', 'reveal_pwd']);

/** The statuses that mean "running and billing" (a metered run is open). */
export const RUNNING_STATUSES: readonly InstanceStatusValue[] = ['PoweredOn', 'PoweredOnNoGPU'];

export function statusLabel(status: string): string {
  return INSTANCE_STATUSES.find((item) => item.value === status)?.label ?? status;
}

export function operationLabel(operation: string): string {
  return INSTANCE_OPERATIONS.find((item) => item.value === operation)?.label ?? operation;
}

export interface InstanceState {
  status: string;
  operation: string | null;
  releasedAt: Date | null;
}

/** Refuses an action the instance's state does not allow, naming the state (409). */
export function assertAllowed(instance: InstanceState, action: UserAction): void {
  const verb = ACTION_LABELS[action];
  if (instance.releasedAt) throw new AppError('STATE_CONFLICT', `实例已释放，不能${verb}`);
  if (instance.operation && !ALONGSIDE_OPERATIONS.has(action)) {
    throw new AppError('STATE_CONFLICT', `实例正在${operationLabel(instance.operation).replace(/中$/, '')}，请稍后再${verb}`);
  }
  if (!(ALLOWED_FROM[action] as readonly string[]).includes(instance.status)) {
    throw new AppError('STATE_CONFLICT', `实例当前状态为「${statusLabel(instance.status)}」，不能${verb}`);
  }
}

/** The status an instance shows once an operation completes. */
export function statusAfter(operation: InstanceOperation, gpuMode: string): InstanceStatusValue | null {
  switch (operation) {
    case 'create':
    case 'power_on':
      return gpuMode === 'nogpu' ? 'PoweredOnNoGPU' : 'PoweredOn';
    case 'power_off':
      return 'PoweredOff';
    case 'release':
      return null;
  }
}
