/**
 * The recharge flow as a pure state machine:
 *   idle --submit--> creating --created(WXPAY|ALIPAY)--> paying --polled(SUCCESS)--> success
 *                             \--created(BANK)--> bank --referenceSubmitted--> bankSubmitted
 *   paying --polled(FAILED)--> failed;  creating --createFailed--> idle;  any --close--> idle
 *   idle --resume(an existing recharge, e.g. 去支付 in 充值记录)--> where that recharge belongs
 * While `paying`, the page polls GET /payment/recharge/{id} every 2 s.
 */
import type { RechargeDto } from '../../../api/billing';

export type RechargeStep =
  | { kind: 'idle' }
  | { kind: 'creating' }
  | { kind: 'paying'; recharge: RechargeDto }
  | { kind: 'bank'; recharge: RechargeDto }
  | { kind: 'bankSubmitted'; recharge: RechargeDto }
  | { kind: 'success'; recharge: RechargeDto }
  | { kind: 'failed'; recharge: RechargeDto };

export type RechargeEvent =
  | { type: 'submit' }
  | { type: 'created'; recharge: RechargeDto }
  | { type: 'createFailed' }
  | { type: 'polled'; recharge: RechargeDto }
  | { type: 'referenceSubmitted'; recharge: RechargeDto }
  | { type: 'resume'; recharge: RechargeDto }
  | { type: 'close' };

export const POLL_INTERVAL_MS = 2000;

export const INITIAL_RECHARGE_STEP: RechargeStep = { kind: 'idle' };

/** Where a recharge in a given state belongs (a created recharge may already be paid or failed). */
function stepOf(recharge: RechargeDto): RechargeStep {
  if (recharge.status === 'SUCCESS') return { kind: 'success', recharge };
  if (recharge.status === 'FAILED') return { kind: 'failed', recharge };
  if (recharge.channel === 'BANK') return recharge.bankReference ? { kind: 'bankSubmitted', recharge } : { kind: 'bank', recharge };
  return { kind: 'paying', recharge };
}

export function rechargeReducer(step: RechargeStep, event: RechargeEvent): RechargeStep {
  switch (event.type) {
    case 'submit':
      return step.kind === 'idle' ? { kind: 'creating' } : step;
    case 'created':
      return step.kind === 'creating' ? stepOf(event.recharge) : step;
    case 'createFailed':
      return step.kind === 'creating' ? INITIAL_RECHARGE_STEP : step;
    case 'polled':
      // Only the recharge being paid moves the flow; a late answer after closing is ignored.
      if (step.kind !== 'paying' || event.recharge.rechargeId !== step.recharge.rechargeId) return step;
      return event.recharge.status === 'CREATED' ? { kind: 'paying', recharge: event.recharge } : stepOf(event.recharge);
    case 'referenceSubmitted':
      if (step.kind !== 'bank' || event.recharge.rechargeId !== step.recharge.rechargeId) return step;
      return event.recharge.status === 'SUCCESS' ? { kind: 'success', recharge: event.recharge } : { kind: 'bankSubmitted', recharge: event.recharge };
    case 'resume':
      return step.kind === 'idle' ? stepOf(event.recharge) : step;
    case 'close':
      return step.kind === 'creating' ? step : INITIAL_RECHARGE_STEP;
  }
}

/** Whether the page polls the recharge: only while a QR payment is open. */
export function isPolling(step: RechargeStep): step is Extract<RechargeStep, { kind: 'paying' }> {
  return step.kind === 'paying';
}

/** The poll's refetch interval for the latest known state of the recharge. */
export function pollInterval(recharge: Pick<RechargeDto, 'status'> | undefined): number | false {
  return !recharge || recharge.status === 'CREATED' ? POLL_INTERVAL_MS : false;
}
