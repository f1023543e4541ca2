/**
 * SMS notices (not codes): what the platform tells a user by text message. Each kind is a template
 * registered with the SMS gateway — Aliyun names its variables (`${instances}`), Tencent numbers them
 * (`{1}`) in the order of `params` below — and the text here is what that template must say, which the
 * console provider writes to its outbox. Values stay within the gateways' variable limits (≤ 20 characters).
 */
export const SMS_NOTICE_KINDS = ['arrears', 'release_reminder', 'stock_alert', 'balance_low', 'package_expiring', 'storage_arrears'] as const;
export type SmsNoticeKind = (typeof SMS_NOTICE_KINDS)[number];

export interface SmsNoticeParams {
  /** Instances powered off because the wallet paying for them went below zero. */
  arrears: { instances: string; balance: string };
  /** Instances powered off long enough to be released soon. */
  release_reminder: { instances: string; releaseAt: string };
  /** A stock alert fired: the zone, and the GPU model with the count asked for (「RTX 4090 2卡」, 「…等3项」 for several). */
  stock_alert: { zone: string; gpu: string };
  /** The balance went below the threshold the user set (both in yuan, 「12.34」). */
  balance_low: { balance: string; threshold: string };
  /** Packages (包日/包周/包月) ending soon, and when the first of them ends. */
  package_expiring: { instances: string; expireAt: string };
  /** 文件存储 in arrears: the region (「华北一区」, 「…等2个地区」) and what happened or will (「已禁止写入」, 「将于2026-07-01 10:00删除」). */
  storage_arrears: { zone: string; status: string };
}

export type SmsNotice = { [K in SmsNoticeKind]: { telephone: string; kind: K; params: SmsNoticeParams[K] } }[SmsNoticeKind];

interface NoticeTemplate<K extends SmsNoticeKind> {
  /** Variable names, in Tencent's `{1}`, `{2}`… order. */
  params: readonly (keyof SmsNoticeParams[K])[];
  /** The template text with the variables filled in. */
  render(params: SmsNoticeParams[K]): string;
}

export const SMS_NOTICE_TEMPLATES: { [K in SmsNoticeKind]: NoticeTemplate<K> } = {
  arrears: {
    params: ['instances', 'balance'],
    render: (p) => `您的账户余额不足（当前余额${p.balance}元），实例${p.instances}已自动关机。请充值后重新开机，关机满15天的实例将被释放。`,
  },
  release_reminder: {
    params: ['instances', 'releaseAt'],
    render: (p) => `您的实例${p.instances}已关机，将于${p.releaseAt}自动释放，系统盘和数据盘数据将被删除。如需保留，请在此之前开机。`,
  },
  stock_alert: {
    params: ['zone', 'gpu'],
    render: (p) => `您订阅的到货提醒：${p.zone} ${p.gpu}现已有空闲，请尽快登录控制台租用，空闲GPU先到先得。`,
  },
  balance_low: {
    params: ['balance', 'threshold'],
    render: (p) => `您的账户余额为${p.balance}元，已低于您设置的提醒金额${p.threshold}元。为免按量计费实例欠费关机，请及时充值。`,
  },
  package_expiring: {
    params: ['instances', 'expireAt'],
    render: (p) => `您的包年包月实例${p.instances}将于${p.expireAt}到期，到期后未续费将关机并转为按量计费。如需继续使用，请及时续费。`,
  },
  storage_arrears: {
    params: ['zone', 'status'],
    render: (p) => `您的账户已欠费，文件存储（${p.zone}）${p.status}。欠费满30天的文件存储将删除全部文件且无法恢复，请尽快充值。`,
  },
};

/** The template's variables as a name → value map (Aliyun's TemplateParam). */
export function noticeParamMap(notice: SmsNotice): Record<string, string> {
  return { ...notice.params };
}

/** The template's variables in order (Tencent's TemplateParamSet). */
export function noticeParamList(notice: SmsNotice): string[] {
  switch (notice.kind) {
    case 'arrears':
      return SMS_NOTICE_TEMPLATES.arrears.params.map((name) => notice.params[name]);
    case 'release_reminder':
      return SMS_NOTICE_TEMPLATES.release_reminder.params.map((name) => notice.params[name]);
    case 'stock_alert':
      return SMS_NOTICE_TEMPLATES.stock_alert.params.map((name) => notice.params[name]);
    case 'balance_low':
      return SMS_NOTICE_TEMPLATES.balance_low.params.map((name) => notice.params[name]);
    case 'package_expiring':
      return SMS_NOTICE_TEMPLATES.package_expiring.params.map((name) => notice.params[name]);
    case 'storage_arrears':
      return SMS_NOTICE_TEMPLATES.storage_arrears.params.map((name) => notice.params[name]);
  }
}

/** The text the recipient reads. */
export function renderNotice(notice: SmsNotice): string {
  switch (notice.kind) {
    case 'arrears':
      return SMS_NOTICE_TEMPLATES.arrears.render(notice.params);
    case 'release_reminder':
      return SMS_NOTICE_TEMPLATES.release_reminder.render(notice.params);
    case 'stock_alert':
      return SMS_NOTICE_TEMPLATES.stock_alert.render(notice.params);
    case 'balance_low':
      return SMS_NOTICE_TEMPLATES.balance_low.render(notice.params);
    case 'package_expiring':
      return SMS_NOTICE_TEMPLATES.package_expiring.render(notice.params);
    case 'storage_arrears':
      return SMS_NOTICE_TEMPLATES.storage_arrears.render(notice.params);
  }
}

/** Template ids per notice kind, as configured for a gateway; a missing one means that notice cannot be sent. */
export type NoticeTemplateIds = Partial<Record<SmsNoticeKind, string>>;

/** The environment variable holding a gateway's template id of a notice kind, e.g. ALIYUN_SMS_TEMPLATE_ARREARS. */
export function noticeTemplateVariable(gateway: 'ALIYUN' | 'TENCENT', kind: SmsNoticeKind): string {
  return `${gateway}_SMS_TEMPLATE_${kind.toUpperCase()}`;
}
