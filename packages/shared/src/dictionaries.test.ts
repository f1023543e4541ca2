import { describe, expect, it } from 'vitest';
import { TIME_PACKAGE_KEYS } from './constants.js';
import {
  CHARGE_PERIODS,
  CHARGE_TYPES,
  CHARGE_UNIT_LABELS,
  CHARGING_RULES,
  DATA_TYPES,
  ELASTIC_DEPLOYMENT_STATUSES,
  ELASTIC_TYPES,
  IMAGE_STATUSES,
  INCOME_TYPES,
  INSTANCE_HEALTHS,
  INSTANCE_STATUSES,
  INVOICE_STATUSES,
  INVOICE_STATUS_CODES,
  INVOICE_TYPES,
  INVOICING_METHODS,
  MONITOR_METRICS,
  ORDER_BILLING_TYPES,
  ORDER_STATUSES,
  ORDER_TYPES,
  PAYMENT_CHANNELS,
  PAYMENT_STATUSES,
  PROTOCOLS,
  RENTAL_EVENT_TYPES,
  RETURN_TYPES,
  SHARE_REVIEW_STATUSES,
  TIME_PACKAGE_STATUSES,
  TIME_PACKAGE_STATUS_ALL,
  TRANSACTION_CHANNELS,
  TRANSACTION_TYPES,
  filterOptionsOf,
  isDictValue,
  labelOf,
  valuesOf,
  type Dictionary,
} from './dictionaries.js';

const CHINESE = /[\u4e00-\u9fff]/;
const TAG_COLORS = ['success', 'processing', 'default', 'error', 'warning'];

/** The value lists exactly as spec §3 names them. */
const SPEC: Record<string, [Dictionary, readonly (string | number)[]]> = {
  'order status': [ORDER_STATUSES, ['UNPAID', 'PAID', 'CANCELED', 'REFUNDED', 'PLACED']],
  'order type': [
    ORDER_TYPES,
    [
      'NEW_PURCHASE',
      'CLONE_INSTANCE',
      'NEW_FLEXIBLE_DEPLOYMENT',
      'SWITCH_TO_USAGE',
      'SWITCH_TO_BUYOUT',
      'REFUND_INSTANCE',
      'NEW_STORAGE',
      'EXPAND_DISK',
      'SHRINK_DISK',
      'NEW_TIME_PACKAGE',
      'CANCEL_TIME_PACKAGE',
      'NEW_IMAGE',
      'UPGRADE_CONTAINER',
      'DOWNGRADE_CONTAINER',
      'RENEWAL_CONTAINER',
      'MODEL_EXPERIENCE',
      'NEW_MODEL_INSTANCE',
      'UPDATE_MODEL_INSTANCE',
    ],
  ],
  'order billing type': [ORDER_BILLING_TYPES, ['USAGE', 'BUYOUT']],
  'charge rule': [CHARGE_TYPES, ['OnDemand', 'PreOrdered']],
  'charge period': [CHARGE_PERIODS, ['ByUsage', 'ByDay', 'ByWeek', 'ByMonth']],
  'invoice type': [INVOICE_TYPES, ['ORDINARY', 'SPECIAL']],
  'invoice status': [INVOICE_STATUSES, ['PENDING', 'SUCCESS', 'REJECTED', 'CANCELED']],
  'invoice status (numeric)': [INVOICE_STATUS_CODES, [1, 2, 3]],
  'invoicing method': [INVOICING_METHODS, ['RECHARGE', 'BILL']],
  'elastic deployment status': [ELASTIC_DEPLOYMENT_STATUSES, ['RUNNING', 'STOPPED', 'FINISHED', 'STOPPING']],
  'elastic type': [ELASTIC_TYPES, ['REPLICA_SET', 'JOB', 'CONTAINER']],
  protocol: [PROTOCOLS, [1, 2]],
  'time package status': [TIME_PACKAGE_STATUSES, ['IN_USE', 'EXPIRED', 'REFUNDED']],
  'transaction type': [TRANSACTION_TYPES, ['CONSUME', 'RECHARGE', 'REFUND', 'WITHDRAW']],
  'transaction channel': [TRANSACTION_CHANNELS, ['WECHAT', 'ALIPAY', 'BALANCE', 'BANK']],
  'income type': [INCOME_TYPES, ['INCOME', 'EXPENSE']],
  'payment channel': [PAYMENT_CHANNELS, ['WXPAY', 'ALIPAY', 'BANK']],
  'payment status': [PAYMENT_STATUSES, ['CREATED', 'SUCCESS', 'FAILED']],
  'data type': [DATA_TYPES, ['DATASET']],
  'share review status': [SHARE_REVIEW_STATUSES, ['PASS', 'IN_REVIEW', 'REJECTED']],
  'return type': [RETURN_TYPES, ['REALTIME', 'SCHEDULED', 'PREHOLD', 'REFUND']],
  'instance runtime state': [
    INSTANCE_STATUSES,
    [
      'PoweredOnNoGPU',
      'Running',
      'Stopped',
      'CreationStarted',
      'ResetStarted',
      'PoweredOn',
      'PoweredOff',
      'Error',
      'DestroyStarted',
      'Unknown',
      'OutOfConnection',
      'Warning',
      'Normal',
      'CreationAccomplished',
    ],
  ],
  'instance health': [INSTANCE_HEALTHS, ['Normal', 'Abnormal']],
  'monitor metric': [
    MONITOR_METRICS,
    [
      'GPU',
      'CPU',
      'MEMORY',
      'MEMORY_COUNT',
      'CPU_COUNT',
      'GPU_COUNT',
      'PVC_USAGE',
      'PVC_CAPACITY',
      'PVC_SHARE_USAGE',
      'SYS_DISK_USAGE',
      'SYS_DISK_COUNT',
    ],
  ],
};

describe('option dictionaries (spec §3)', () => {
  it.each(Object.entries(SPEC))('%s has exactly the values of the spec', (_name, [dict, expected]) => {
    expect(dict).toHaveLength(expected.length);
    expect([...valuesOf(dict)].sort()).toEqual([...expected].sort());
  });

  it.each(Object.entries(SPEC))('%s has unique values and a Chinese label on every item', (_name, [dict]) => {
    expect(new Set(valuesOf(dict)).size).toBe(dict.length);
    for (const item of dict) expect(item.label, String(item.value)).toMatch(CHINESE);
  });

  it('has all 18 order types', () => {
    expect(ORDER_TYPES).toHaveLength(18);
  });

  it('has all 14 instance runtime states with stable ids, antd colours and filter flags', () => {
    expect(INSTANCE_STATUSES).toHaveLength(14);
    expect(INSTANCE_STATUSES.map((s) => s.id)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    for (const status of INSTANCE_STATUSES) expect(TAG_COLORS).toContain(status.color);
    expect(labelOf(INSTANCE_STATUSES, 'PoweredOnNoGPU')).toBe('无卡模式运行中');
    expect(labelOf(INSTANCE_STATUSES, 'PoweredOff')).toBe('已关机');
    expect(labelOf(INSTANCE_STATUSES, 'DestroyStarted')).toBe('释放中');
    expect(labelOf(INSTANCE_STATUSES, 'OutOfConnection')).toBe('失联');
    const filters = filterOptionsOf(INSTANCE_STATUSES);
    expect(filters.length).toBeGreaterThan(0);
    expect(new Set(filters.map((s) => s.label)).size).toBe(filters.length);
    expect(filters.map((s) => s.value)).toEqual(expect.arrayContaining(['PoweredOn', 'PoweredOff', 'CreationStarted']));
  });

  it('labels health Normal / Abnormal and the image status ready', () => {
    expect(INSTANCE_HEALTHS.map((h) => [h.value, h.label])).toEqual([
      ['Normal', '正常'],
      ['Abnormal', '异常'],
    ]);
    expect(labelOf(IMAGE_STATUSES, 'READY')).toBe('就绪');
  });

  it('numbers protocols http=1, tcp=2', () => {
    expect(PROTOCOLS.map((p) => [p.name, p.value])).toEqual([
      ['http', 1],
      ['tcp', 2],
    ]);
  });

  it('numbers time package statuses 2, 3, 4 with 1 meaning all', () => {
    expect(TIME_PACKAGE_STATUSES.map((s) => [s.value, s.code])).toEqual([
      ['IN_USE', 2],
      ['EXPIRED', 3],
      ['REFUNDED', 4],
    ]);
    expect(TIME_PACKAGE_STATUS_ALL.code).toBe(1);
  });

  it('numbers invoice statuses 1 under review, 2 issued, 3 rejected', () => {
    expect(INVOICE_STATUS_CODES.map((s) => [s.value, s.label])).toEqual([
      [1, '审核中'],
      [2, '已开票'],
      [3, '已驳回'],
    ]);
    for (const status of INVOICE_STATUSES) {
      if (status.code !== null) expect(labelOf(INVOICE_STATUS_CODES, status.code)).toBe(status.label);
    }
  });

  it('has 15 rental event types with stable uppercase values and ids', () => {
    expect(RENTAL_EVENT_TYPES).toHaveLength(15);
    expect(RENTAL_EVENT_TYPES.map((e) => e.id)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(new Set(RENTAL_EVENT_TYPES.map((e) => e.value)).size).toBe(15);
    expect(new Set(RENTAL_EVENT_TYPES.map((e) => e.label)).size).toBe(15);
    for (const event of RENTAL_EVENT_TYPES) {
      expect(event.value).toMatch(/^[A-Z][A-Z_]*$/);
      expect(event.label).toMatch(CHINESE);
    }
    expect(RENTAL_EVENT_TYPES.map((e) => e.label)).toEqual([
      '创建',
      '开机',
      '关机',
      '重置系统',
      '更换镜像',
      '扩容磁盘',
      '缩容磁盘',
      '克隆',
      '保存镜像',
      '变更GPU数量',
      '变更计费方式',
      '定时关机',
      '欠费关机',
      '到期',
      '释放',
    ]);
  });
});

describe('charging rules (spec §3, §9)', () => {
  it('has the four rules with ids 1..4 and Chinese names', () => {
    expect(CHARGING_RULES.map((r) => [r.id, r.name])).toEqual([
      [1, 'ByUsage'],
      [2, 'ByDay'],
      [3, 'ByWeek'],
      [4, 'ByMonth'],
    ]);
    for (const rule of CHARGING_RULES) {
      expect(rule.showName).toMatch(CHINESE);
      expect(rule.unit).toMatch(CHINESE);
      expect(rule.isFilter).toBe(true);
    }
  });

  it('uses the package keys day=2, week=3, month=4 as rule ids', () => {
    const idOf = (name: string) => CHARGING_RULES.find((r) => r.name === name)?.id;
    expect(idOf('ByDay')).toBe(TIME_PACKAGE_KEYS.day);
    expect(idOf('ByWeek')).toBe(TIME_PACKAGE_KEYS.week);
    expect(idOf('ByMonth')).toBe(TIME_PACKAGE_KEYS.month);
    expect(TIME_PACKAGE_KEYS).toEqual({ day: 2, week: 3, month: 4 });
    for (const period of CHARGE_PERIODS) {
      expect(CHARGING_RULES.find((r) => r.id === period.ruleId)?.name).toBe(period.value);
      if (period.packageKey) expect(TIME_PACKAGE_KEYS[period.packageKey]).toBe(period.ruleId);
    }
  });

  it('labels units hour/day/week/month and shows the usage rule per day', () => {
    expect(CHARGE_UNIT_LABELS).toEqual({ hour: '时', day: '天', week: '周', month: '月' });
    expect(CHARGING_RULES.map((r) => r.unit)).toEqual(['天', '天', '周', '月']);
    expect(CHARGE_PERIODS.map((p) => `${p.label}/${p.unitLabel}`)).toEqual(['按量/时', '包日/天', '包周/周', '包月/月']);
    expect(CHARGE_PERIODS.map((p) => p.chargeType)).toEqual(['OnDemand', 'PreOrdered', 'PreOrdered', 'PreOrdered']);
  });
});

describe('helpers', () => {
  it('labelOf finds the label, shows unknown values as themselves, and falls back on missing ones', () => {
    expect(labelOf(ORDER_STATUSES, 'PAID')).toBe('已支付');
    expect(labelOf(PROTOCOLS, 2)).toBe('TCP 协议');
    expect(labelOf(ORDER_STATUSES, 'SOMETHING_NEW' as never)).toBe('SOMETHING_NEW');
    expect(labelOf(ORDER_STATUSES, null)).toBe('-');
    expect(labelOf(ORDER_STATUSES, undefined, '')).toBe('');
  });

  it('isDictValue narrows only known values', () => {
    expect(isDictValue(ORDER_TYPES, 'NEW_PURCHASE')).toBe(true);
    expect(isDictValue(ORDER_TYPES, 'new_purchase')).toBe(false);
    expect(isDictValue(PROTOCOLS, '1')).toBe(false);
  });
});
