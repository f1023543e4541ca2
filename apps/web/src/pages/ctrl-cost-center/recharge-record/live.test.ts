import { describe, expect, it } from 'vitest';
import type { RechargeDto } from '../../../api/billing';
import {
  BANK_PENDING_POLL_MS,
  displayStateOf,
  isPayableQr,
  pendingKinds,
  QR_PENDING_POLL_MS,
  recordPollInterval,
  settledIds,
} from './live';

const recharge = (overrides: Partial<RechargeDto> = {}): RechargeDto => ({
  rechargeId: 'RC1',
  amount: 100,
  channel: 'WXPAY',
  status: 'CREATED',
  payUrl: null,
  qrCode: 'weixin://wxpay/bizpayurl?pr=RC1',
  bankReference: null,
  failureReason: null,
  createdAt: '2025-01-01T00:00:00Z',
  paidAt: null,
  ...overrides,
});
const page = (list: RechargeDto[]) => ({ list, total: list.length, page: 1, pageSize: 10 });

describe('充值记录 polling', () => {
  it('polls fast while a QR payment is pending, slowly while only a bank transfer is, and not otherwise', () => {
    expect(recordPollInterval(page([recharge(), recharge({ rechargeId: 'RC2', channel: 'BANK' })]))).toBe(QR_PENDING_POLL_MS);
    expect(recordPollInterval(page([recharge({ channel: 'BANK' }), recharge({ rechargeId: 'RC2', status: 'SUCCESS' })]))).toBe(BANK_PENDING_POLL_MS);
    expect(recordPollInterval(page([recharge({ status: 'SUCCESS' }), recharge({ rechargeId: 'RC2', status: 'FAILED' })]))).toBe(false);
    expect(recordPollInterval(page([]))).toBe(false);
    expect(recordPollInterval(undefined)).toBe(false);
  });

  it('names the pending recharges that settled or left the page since the last answer', () => {
    const before = new Set(['RC1', 'RC2', 'RC3']);
    const now = [recharge({ rechargeId: 'RC1' }), recharge({ rechargeId: 'RC2', status: 'SUCCESS' }), recharge({ rechargeId: 'RC4' })];
    expect(settledIds(before, now)).toEqual(['RC2', 'RC3']);
    expect(settledIds(new Set(['RC1']), [recharge()])).toEqual([]);
  });
});

describe('充值记录 states', () => {
  it('reads a pending bank transfer as 待确认, a cancelled recharge apart from a failed one', () => {
    expect(displayStateOf(recharge())).toBe('AWAITING_PAYMENT');
    expect(displayStateOf(recharge({ channel: 'BANK' }))).toBe('AWAITING_CONFIRMATION');
    expect(displayStateOf(recharge({ status: 'SUCCESS' }))).toBe('SUCCESS');
    expect(displayStateOf(recharge({ status: 'FAILED', failureReason: '已取消' }))).toBe('CANCELED');
    expect(displayStateOf(recharge({ status: 'FAILED', failureReason: '支付超时，订单已关闭' }))).toBe('FAILED');
  });

  it('offers 去支付 for a pending QR recharge with a code on any gateway, never for a bank transfer or a settled one', () => {
    expect(isPayableQr(recharge())).toBe(true);
    expect(isPayableQr(recharge({ channel: 'ALIPAY', qrCode: 'https://qr.alipay.com/x' }))).toBe(true);
    expect(isPayableQr(recharge({ qrCode: null, payUrl: 'http://localhost/sandbox-pay/RC1' }))).toBe(true);
    expect(isPayableQr(recharge({ qrCode: null }))).toBe(false);
    expect(isPayableQr(recharge({ channel: 'BANK', qrCode: null }))).toBe(false);
    expect(isPayableQr(recharge({ status: 'FAILED' }))).toBe(false);
  });

  it('knows which pending states the offered channels produce', () => {
    expect(pendingKinds(['WXPAY', 'BANK'])).toEqual({ qr: true, bank: true });
    expect(pendingKinds(['BANK'])).toEqual({ qr: false, bank: true });
    expect(pendingKinds(['ALIPAY'])).toEqual({ qr: true, bank: false });
  });
});
