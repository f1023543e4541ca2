import { formatYuan } from '@slg/shared';
import { REMINDER_DAYS_DEFAULT, REMINDER_DAYS_MAX, REMINDER_DAYS_MIN, REMINDER_THRESHOLD_MAX_FEN, REMINDER_THRESHOLD_MIN_FEN, type RemindType } from '@slg/shared';

/** Texts of the 提醒设置 card on 个人中心 › 设置. */
export const REMINDER_TEXTS = {
  title: '提醒设置',
  intro: '提醒会出现在页面右上角的消息通知中；勾选“同时发送短信”后还会发短信到本账号绑定的手机号（未绑定手机号的子账号发送到主账号手机号）。每项修改后点击“保存”生效。',
  loadFailed: '提醒设置加载失败',
  enabledLabel: (title: string) => `开启${title}`,
  alwaysOn: '站内消息始终发送',
  sms: '同时发送短信',
  smsLabel: (title: string) => `${title}同时发送短信`,
  save: '保存',
  reset: '撤销修改',
  unsaved: '有未保存的修改',
  saved: {
    on: (title: string, detail: string) => `${title}已保存：${detail}`,
    balanceDetail: (threshold: string, sms: boolean) => `余额低于${threshold}时提醒${sms ? '（含短信）' : '（仅站内消息）'}`,
    daysDetail: (days: number, sms: boolean) => `到期前${days}天提醒${sms ? '（含短信）' : '（仅站内消息）'}`,
    off: (title: string) => `${title}已关闭`,
    smsOn: (title: string) => `${title}将同时发送短信`,
    smsOff: (title: string) => `${title}不再发送短信，站内消息照常`,
  },
  types: {
    BALANCE_LOW: {
      title: '余额不足提醒',
      text: '余额低于设定金额时提醒一次；余额回到该金额以上后，再次低于时会重新提醒。余额不足时按量计费的实例会欠费关机。',
    },
    PACKAGE_EXPIRING: {
      title: '包年包月到期提醒',
      text: '包日、包周、包月实例在到期前指定天数提醒，每次到期提醒一次；续费后到新的到期时间前会再次提醒。未续费的实例到期后关机并转为按量计费。',
    },
    RELEASE: {
      title: '实例释放提醒',
      text: '按量计费实例关机满15天将被自动释放、数据删除，平台在释放前3天和1天提醒。该提醒始终在站内消息中发送，关闭短信后只是不再发短信。',
    },
    STOCK: {
      title: '到货提醒',
      text: '订阅的地区与GPU型号有空闲时提醒一次（在算力市场订阅）。该提醒始终在站内消息中发送，关闭短信后只是不再发短信。',
    },
  } satisfies Record<RemindType, { title: string; text: string }>,
  threshold: {
    label: '提醒金额',
    placeholder: '如 100',
    required: '请输入提醒金额',
    format: '请输入正确的金额，最多两位小数',
    min: `提醒金额不能低于${formatYuan(REMINDER_THRESHOLD_MIN_FEN)}`,
    max: `提醒金额不能超过${formatYuan(REMINDER_THRESHOLD_MAX_FEN)}`,
    balance: (balance: string) => `当前余额 ${balance}`,
    sharedBalance: (balance: string) => `主账号余额 ${balance}（共用主账号余额）`,
    alreadyBelow: '当前余额已低于提醒金额，保存后约1分钟内会收到提醒。',
    fired: (at: string, threshold: string) => `已于${at}提醒过；余额回到${threshold}以上后，再次低于时会重新提醒。`,
  },
  days: {
    label: '提醒时间',
    option: (days: number) => `到期前${days}天${days === REMINDER_DAYS_DEFAULT ? '（默认）' : ''}`,
    range: `可选${REMINDER_DAYS_MIN}–${REMINDER_DAYS_MAX}天`,
  },
} as const;
