/** Paths of the compute pages, and the link from a market host to the create page. */
export const COMPUTE_PATHS = {
  market: '/computility-market',
  list: '/ctrl-container-instances/containerInstances',
  create: '/ctrl-container-instances/createInstances',
  clone: '/ctrl-container-instances/cloneInstances',
  confirmOrder: '/ctrl-container-instances/confirm-order',
  confirmClone: '/ctrl-container-instances/confirm-clone-order',
  monitoring: '/ctrl-container-instances/instance-monitoring',
  upDown: '/ctrl-container-instances/upDownSetting',
  prices: '/ctrl-container-instances/priceDetail',
  renew: '/ctrl-container-instances/renew',
  payByVolume: '/ctrl-container-instances/payByVolume',
  yearMonthPackages: '/ctrl-container-instances/yearMonthPackages',
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

/** 续费 of one or more package instances: `?instanceIds=id1,id2` (commas kept readable). */
export function renewPath(instanceIds: readonly string[]): string {
  return `${COMPUTE_PATHS.renew}?instanceIds=${instanceIds.map(encodeURIComponent).join(',')}`;
}

/** 转按量计费 of a package instance. */
export function payByVolumePath(instanceId: string): string {
  return `${COMPUTE_PATHS.payByVolume}?${new URLSearchParams({ instanceId }).toString()}`;
}

/** 转包年包月 of a pay-as-you-go instance. */
export function yearMonthPackagesPath(instanceId: string): string {
  return `${COMPUTE_PATHS.yearMonthPackages}?${new URLSearchParams({ instanceId }).toString()}`;
}

/** 克隆实例 of one instance; `move` opens it as 迁移 (the source released once the clone runs). */
export function cloneInstancesPath(instanceId: string, move = false): string {
  const query = new URLSearchParams({ instanceId, ...(move ? { move: '1' } : {}) });
  return `${COMPUTE_PATHS.clone}?${query.toString()}`;
}

/** 终端 of one instance (opened in a tab of its own). */
export function instanceTerminalPath(instanceId: string): string {
  return `/ctrl-container-instances/terminal?${new URLSearchParams({ instanceId }).toString()}`;
}
