/** Query keys shared by every page, so a page that changes money can invalidate the balance. */
export const queryKeys = {
  balance: ['account', 'balance'] as const,
  /** 算力市场: hosts and the overview (api/compute.ts builds the full keys under it). */
  market: ['market'] as const,
  /** Container instances: lists, summary, details (api/compute.ts). */
  instances: ['instances'] as const,
  /** SSH公钥 (api/sshKeys.ts). */
  sshKeys: ['ssh-keys'] as const,
  /** API令牌 (api/apiTokens.ts). */
  apiTokens: ['api-tokens'] as const,
  /** 我的镜像: private images and their quota (api/images.ts). */
  privateImages: ['private-images'] as const,
  /** 到货提醒: the caller's stock alerts (api/subscriptions.ts). */
  stockAlerts: ['stock-alerts'] as const,
  /** 消息通知: the header bell's unread count and its lists (api/notifications.ts). */
  notifications: ['notifications'] as const,
  /** 子账号管理: the main account's sub-accounts (api/subAccounts.ts). */
  subAccounts: ['sub-accounts'] as const,
  /** 实名认证: the account's verification status (api/verification.ts). */
  verification: ['verification'] as const,
  /** 账号设置 → 微信: the account's WeChat binding (api/wechat.ts). */
  wechatBinding: ['wechat-binding'] as const,
  /** 提醒设置: the caller's reminders and the balance they watch (api/reminders.ts). */
  reminders: ['reminders'] as const,
  /** 弹性部署: deployments, their containers and events, the overview with its stock (api/elastic.ts). */
  elastic: ['elastic'] as const,
  /** 时长包 of 弹性部署 (api/elastic.ts). */
  timePacks: ['time-packs'] as const,
  /** 文件存储: every region's store and the folder listings (api/storage.ts). */
  storage: ['storage'] as const,
  /** 数据集: public and shared datasets, favourites, the account's own, their files (api/datasets.ts). */
  datasets: ['datasets'] as const,
  /** 模型: the catalogue (api/models.ts). */
  models: ['models'] as const,
} as const;
