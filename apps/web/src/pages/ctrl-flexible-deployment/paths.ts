/** Paths of the 弹性部署 pages, and the link to one deployment's containers. */
const GROUP = '/ctrl-flexible-deployment/flexiible-deployment';

export const ELASTIC_PATHS = {
  list: `${GROUP}/flexiible-deployment`,
  create: `${GROUP}/create-flexible`,
  view: `${GROUP}/view-container`,
  released: `${GROUP}/release-instance`,
  timePacks: `${GROUP}/time-packs`,
  recharge: '/ctrl-cost-center/cost-center/recharge',
  privateImages: '/ctrl-mirror-image/mirrorImage',
} as const;

/** 查看容器 of one deployment. */
export function viewContainerPath(deploymentUid: string): string {
  return `${ELASTIC_PATHS.view}?${new URLSearchParams({ deploymentUid }).toString()}`;
}
