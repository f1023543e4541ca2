import type { PaymentChannelValue } from '@slg/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer } from 'react';
import {
  billingKeys,
  createRecharge,
  fetchRecharge,
  invalidateMoneyQueries,
  submitBankReference,
  type RechargeDto,
} from '../../../api/billing';
import { newIdempotencyKey } from '../../../api/idempotency';
import { INITIAL_RECHARGE_STEP, isPolling, pollInterval, rechargeReducer } from './rechargeFlow';

/**
 * Drives the recharge state machine: creates the recharge (a new Idempotency-Key per submit), polls it
 * every 2 s while the QR payment is open (also while the console tab is in the background: the user is
 * paying in another window), and on SUCCESS refreshes the balance and every money list.
 */
export function useRechargeFlow() {
  const queryClient = useQueryClient();
  const [step, dispatch] = useReducer(rechargeReducer, INITIAL_RECHARGE_STEP);

  const create = useMutation({
    mutationFn: (body: { amount: number; channel: PaymentChannelValue }) => createRecharge(body, newIdempotencyKey()),
  });

  const paying = isPolling(step) ? step.recharge : null;
  const poll = useQuery({
    queryKey: billingKeys.recharge(paying?.rechargeId ?? ''),
    queryFn: () => fetchRecharge(paying?.rechargeId ?? ''),
    enabled: paying !== null,
    initialData: paying ?? undefined,
    staleTime: 0,
    refetchOnMount: false,
    refetchInterval: (query) => pollInterval(query.state.data),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: true,
    retry: false,
  });

  const polled = poll.data;
  useEffect(() => {
    if (!paying || !polled || polled.rechargeId !== paying.rechargeId || polled.status === 'CREATED') return;
    dispatch({ type: 'polled', recharge: polled });
    if (polled.status === 'SUCCESS') void invalidateMoneyQueries(queryClient);
  }, [paying, polled, queryClient]);

  const reference = useMutation({
    mutationFn: ({ rechargeId, value }: { rechargeId: string; value: string }) => submitBankReference(rechargeId, value),
    onSuccess: (recharge) => {
      dispatch({ type: 'referenceSubmitted', recharge });
      void queryClient.invalidateQueries({ queryKey: billingKeys.recharges });
    },
  });

  async function start(amount: number, channel: PaymentChannelValue): Promise<RechargeDto | null> {
    dispatch({ type: 'submit' });
    try {
      const recharge = await create.mutateAsync({ amount, channel });
      dispatch({ type: 'created', recharge });
      void queryClient.invalidateQueries({ queryKey: billingKeys.recharges });
      if (recharge.status === 'SUCCESS') void invalidateMoneyQueries(queryClient);
      return recharge;
    } catch {
      // The client toasted the reason; the form stays as it was.
      dispatch({ type: 'createFailed' });
      return null;
    }
  }

  return {
    step,
    start,
    /** Opens the dialog for a recharge created earlier (去支付 in 充值记录): its QR code again, polled until paid. */
    resume: (recharge: RechargeDto) => dispatch({ type: 'resume', recharge }),
    close: () => dispatch({ type: 'close' }),
    submitReference: (rechargeId: string, value: string) => reference.mutateAsync({ rechargeId, value }),
    referencePending: reference.isPending,
    /** The last poll failed (the next one is on its way). */
    pollFailing: poll.isError,
  };
}
