import {
  INSTANCE_ACTION_STATES,
  INSTANCE_ACTIONS_ALONGSIDE_OPERATIONS,
  packageKeyOfRule,
  type InstanceStatusValue,
  type InstanceUserAction,
  type PackageKey,
} from '@slg/shared';
import type { InstanceView } from '../../../api/compute';

/**
 * What the list offers per state: the server's state machine (apps/server/src/compute/state-machine.ts)
 * as the console sees it, so a button is only there when the server would accept the action.
 */
export type InstanceAction = InstanceUserAction | 'power_on_nogpu';

const ALLOWED_FROM: Record<InstanceAction, readonly InstanceStatusValue[]> = { ...INSTANCE_ACTION_STATES, power_on_nogpu: INSTANCE_ACTION_STATES.power_on };

/** Actions of a day / week / month package only. */
const PACKAGE_ONLY: ReadonlySet<InstanceAction> = new Set(['renew', 'auto_renew']);

/** Actions that do not touch the machine, allowed while an operation is under way. */
const ALONGSIDE_OPERATIONS: ReadonlySet<InstanceAction> = INSTANCE_ACTIONS_ALONGSIDE_OPERATIONS;

type RuleFacts = Pick<InstanceView, 'status' | 'operation' | 'chargingRuleId' | 'expiresAt'> & Partial<Pick<InstanceView, 'copyTask'>>;

/** Actions the server refuses while a copy runs from or into the instance (they would destroy or cut an end). */
const BLOCKED_BY_COPY: ReadonlySet<InstanceAction> = new Set(['release', 'reset', 'switch_image']);

/** The day / week / month package an instance is on; null for pay-as-you-go. */
export function packageOf(instance: Pick<InstanceView, 'chargingRuleId' | 'expiresAt'>): PackageKey | null {
  return instance.expiresAt ? packageKeyOfRule(instance.chargingRuleId) : null;
}

/** A package not yet ended: it keeps its GPUs and cannot be released (switch it to 按量 first). */
export function isUnexpiredPackage(instance: Pick<InstanceView, 'chargingRuleId' | 'expiresAt'>, now = Date.now()): boolean {
  return packageOf(instance) !== null && Date.parse(instance.expiresAt ?? '') > now;
}

export function canDo(instance: RuleFacts, action: InstanceAction, now = Date.now()): boolean {
  if (instance.operation && !ALONGSIDE_OPERATIONS.has(action)) return false;
  if (!ALLOWED_FROM[action].includes(instance.status)) return false;
  if (instance.copyTask && BLOCKED_BY_COPY.has(action)) return false;
  if (PACKAGE_ONLY.has(action)) return packageOf(instance) !== null;
  // A package powers on with the GPUs it keeps: no 无卡模式.
  if (action === 'power_on_nogpu') return packageOf(instance) === null;
  if (action === 'release') return !isUnexpiredPackage(instance, now);
  return true;
}

/** Why 释放 is not offered now, when the user could do something about it; null when it is, or nothing helps. */
export function releaseBlocker(instance: RuleFacts, now = Date.now()): 'power_off_first' | 'switch_to_usage_first' | 'copy_running' | null {
  if (instance.operation) return null;
  if (instance.copyTask) return 'copy_running';
  const releasableOnceOff = ALLOWED_FROM.release.includes(instance.status) || canDo(instance, 'power_off');
  if (!releasableOnceOff) return null;
  if (isUnexpiredPackage(instance, now)) return 'switch_to_usage_first';
  if (canDo(instance, 'power_off')) return 'power_off_first';
  return null;
}

export function isRunning(instance: Pick<InstanceView, 'status'>): boolean {
  return instance.status === 'PoweredOn' || instance.status === 'PoweredOnNoGPU';
}
