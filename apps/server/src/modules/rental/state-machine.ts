import {
  INSTANCE_ACTION_STATES,
  INSTANCE_ACTIONS_ALONGSIDE_OPERATIONS,
  INSTANCE_OPERATIONS,
  INSTANCE_STATUSES,
  USAGE_CHARGING_RULE_ID,
  type InstanceStatusValue,
  type InstanceUserAction,
} from '@slg/shared';
import { AppError } from '../../core/errors.js';

/**
 * The instance state machine (DESIGN §7), in one place. Every API operation and every job asks
 * `assertAllowed` before it changes an instance; what happens once the machines confirm is in the
 * reconciler. An operation in another state is refused with a message naming the state.
 */
export type UserAction = InstanceUserAction;

const ACTION_LABELS: Record<UserAction, string> = {
  power_on: '开机',
  power_off: '关机',
  release: '释放',
  rename: '修改名称',
  update_pwd: '修改密码',
  reveal_pwd: '查看密码',
  schedule_power_off: '设置定时关机',
  cancel_power_off: '取消定时关机',
  renew: '续费',
  auto_renew: '设置自动续费',
  switch_charging: '变更计费方式',
  change_gpu_num: '变更GPU数量',
  reset: '重置系统',
  switch_image: '更换镜像',
  save_image: '保存镜像',
  extend_disk: '扩容数据盘',
  shrink_disk: '缩容数据盘',
  map_port: '设置自定义服务',
  clone: '克隆',
  keep_when_off: '设置保留实例',
  copy_data: '跨实例拷贝',
};

/** States from which each action may start (and then only with no operation in flight, unless said). */
const ALLOWED_FROM = INSTANCE_ACTION_STATES;
const ALONGSIDE_OPERATIONS = INSTANCE_ACTIONS_ALONGSIDE_OPERATIONS;

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

/** GPUs an instance keeps reserved on its host while off: all of them for a prepaid package, none for pay-as-you-go. */
export function gpusKeptWhenOff(instance: { chargingRuleId: number; gpuHeld: number }): number {
  return instance.chargingRuleId === USAGE_CHARGING_RULE_ID ? 0 : instance.gpuHeld;
}
