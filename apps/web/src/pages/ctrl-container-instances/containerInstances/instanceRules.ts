import type { InstanceStatusValue } from '@slg/shared';
import type { InstanceView } from '../../../api/compute';

/**
 * What the list offers per state: the server's state machine (apps/server/src/compute/state-machine.ts)
 * as the console sees it, so a button is only there when the server would accept the action.
 */
export type InstanceAction = 'power_on' | 'power_off' | 'release' | 'rename' | 'update_pwd' | 'reveal_pwd';

const ALLOWED_FROM: Record<InstanceAction, readonly InstanceStatusValue[]> = {
  power_on: ['PoweredOff', 'Error'],
  power_off: ['PoweredOn', 'PoweredOnNoGPU'],
  release: ['PoweredOff', 'Error'],
  rename: ['CreationStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
  update_pwd: ['PoweredOn', 'PoweredOnNoGPU'],
  reveal_pwd: ['CreationStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
};

/** Actions that do not touch the machine, allowed while an operation is under way. */
const ALONGSIDE_OPERATIONS: ReadonlySet<InstanceAction> = new Set(['rename', 'reveal_pwd']);

export function canDo(instance: Pick<InstanceView, 'status' | 'operation'>, action: InstanceAction): boolean {
  if (instance.operation && !ALONGSIDE_OPERATIONS.has(action)) return false;
  return ALLOWED_FROM[action].includes(instance.status);
}

export function isRunning(instance: Pick<InstanceView, 'status'>): boolean {
  return instance.status === 'PoweredOn' || instance.status === 'PoweredOnNoGPU';
}
