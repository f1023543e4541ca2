import { describe, expect, it } from 'vitest';
import type { RechargeDto } from '../../../api/billing';
import { INITIAL_RECHARGE_STEP, isPolling, pollInterval, POLL_INTERVAL_MS, rechargeReducer, type RechargeStep } from './rechargeFlow';

const recharge = (overrides: Partial<RechargeDto> = {}): RechargeDto => ({
  rechargeId: 'RC1',
  amount: 10000,
  channel: 'WXPAY',
  status: 'CREATED',
  payUrl: 'http://localhost/sandbox-pay/RC1',
  qrCode: 'weixin://pay/RC1',
  bankReference: null,
  failureReason: null,
  createdAt: '2025-01-01T00:00:00Z',
  paidAt: null,
  ...overrides,
});

function run(events: Parameters<typeof rechargeReducer>[1][], from: RechargeStep = INITIAL_RECHARGE_STEP): RechargeStep {
  return events.reduce(rechargeReducer, from);
}

describe('recharge state machine', () => {
  it('created → polling → success', () => {
    const creating = run([{ type: 'submit' }]);
    expect(creating.kind).toBe('creating');
    const paying = rechargeReducer(creating, { type: 'created', recharge: recharge() });
    expect(paying.kind).toBe('paying');
    expect(isPolling(paying)).toBe(true);
    const stillPaying = rechargeReducer(paying, { type: 'polled', recharge: recharge() });
    expect(stillPaying.kind).toBe('paying');
    const done = rechargeReducer(stillPaying, { type: 'polled', recharge: recharge({ status: 'SUCCESS', paidAt: '2025-01-01T00:01:00Z' }) });
    expect(done).toMatchObject({ kind: 'success', recharge: { status: 'SUCCESS' } });
    expect(isPolling(done)).toBe(false);
  });

  it('polling → failed', () => {
    const failed = run([{ type: 'submit' }, { type: 'created', recharge: recharge() }, { type: 'polled', recharge: recharge({ status: 'FAILED', failureReason: '用户取消' }) }]);
    expect(failed).toMatchObject({ kind: 'failed', recharge: { failureReason: '用户取消' } });
  });

  it('a bank transfer waits for its reference, without polling', () => {
    const bank = run([{ type: 'submit' }, { type: 'created', recharge: recharge({ channel: 'BANK', payUrl: null, qrCode: null }) }]);
    expect(bank.kind).toBe('bank');
    expect(isPolling(bank)).toBe(false);
    const submitted = rechargeReducer(bank, { type: 'referenceSubmitted', recharge: recharge({ channel: 'BANK', bankReference: 'REF-001' }) });
    expect(submitted.kind).toBe('bankSubmitted');
  });

  it('resumes a recharge created earlier: a pending QR payment polls again, other states show where they are', () => {
    const resumed = rechargeReducer(INITIAL_RECHARGE_STEP, { type: 'resume', recharge: recharge({ channel: 'ALIPAY', payUrl: null }) });
    expect(resumed).toMatchObject({ kind: 'paying', recharge: { channel: 'ALIPAY' } });
    expect(isPolling(resumed)).toBe(true);
    expect(rechargeReducer(resumed, { type: 'polled', recharge: recharge({ status: 'SUCCESS' }) }).kind).toBe('success');
    expect(rechargeReducer(INITIAL_RECHARGE_STEP, { type: 'resume', recharge: recharge({ status: 'SUCCESS' }) }).kind).toBe('success');
    expect(rechargeReducer(INITIAL_RECHARGE_STEP, { type: 'resume', recharge: recharge({ channel: 'BANK', bankReference: 'R1' }) }).kind).toBe('bankSubmitted');
    // Only from idle: a dialog already open is not replaced.
    expect(rechargeReducer(resumed, { type: 'resume', recharge: recharge({ rechargeId: 'RC2' }) })).toBe(resumed);
  });

  it('a failed create goes back to the form; close always does', () => {
    expect(run([{ type: 'submit' }, { type: 'createFailed' }])).toEqual(INITIAL_RECHARGE_STEP);
    expect(run([{ type: 'submit' }, { type: 'created', recharge: recharge() }, { type: 'close' }])).toEqual(INITIAL_RECHARGE_STEP);
  });

  it('ignores answers about another recharge or after closing', () => {
    const paying = run([{ type: 'submit' }, { type: 'created', recharge: recharge() }]);
    expect(rechargeReducer(paying, { type: 'polled', recharge: recharge({ rechargeId: 'RC2', status: 'SUCCESS' }) })).toBe(paying);
    expect(rechargeReducer(INITIAL_RECHARGE_STEP, { type: 'polled', recharge: recharge({ status: 'SUCCESS' }) })).toBe(INITIAL_RECHARGE_STEP);
    // A second submit while one is being created is ignored.
    const creating = run([{ type: 'submit' }]);
    expect(rechargeReducer(creating, { type: 'submit' })).toBe(creating);
  });

  it('polls every 2 s until the recharge is settled', () => {
    expect(POLL_INTERVAL_MS).toBe(2000);
    expect(pollInterval(recharge())).toBe(2000);
    expect(pollInterval(undefined)).toBe(2000);
    expect(pollInterval(recharge({ status: 'SUCCESS' }))).toBe(false);
    expect(pollInterval(recharge({ status: 'FAILED' }))).toBe(false);
  });
});
