/** Paths of the compute pages, and the link from a market host to the create page. */
export const COMPUTE_PATHS = {
  market: '/computility-market',
  list: '/ctrl-container-instances/containerInstances',
  create: '/ctrl-container-instances/createInstances',
  monitoring: '/ctrl-container-instances/instance-monitoring',
  upDown: '/ctrl-container-instances/upDownSetting',
  prices: '/ctrl-container-instances/priceDetail',
  recharge: '/ctrl-cost-center/cost-center/recharge',
  privateImages: '/ctrl-mirror-image/mirrorImage',
} as const;

/** What the create page needs in its query: the host and the GPUs. */
export interface CreateTarget {
  hostId: string;
  gpuNum: number;
  chargingRuleId: number;
}

export function createInstancePath(target: CreateTarget): string {
  const query = new URLSearchParams({
    hostId: target.hostId,
    gpuNum: String(target.gpuNum),
    chargingRuleId: String(target.chargingRuleId),
  });
  return `${COMPUTE_PATHS.create}?${query.toString()}`;
}

/** 实例监控 of one instance. */
export function instanceMonitoringPath(instanceId: string): string {
  return `${COMPUTE_PATHS.monitoring}?${new URLSearchParams({ instanceId }).toString()}`;
}

/** 升降配置 (GPU count) of one instance. */
export function upDownSettingPath(instanceId: string): string {
  return `${COMPUTE_PATHS.upDown}?${new URLSearchParams({ instanceId }).toString()}`;
}
