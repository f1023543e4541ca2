import { ErrorCodes } from '@slg/shared';
import { useEffect, useEffectEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isApiError, type TokenPair } from '../../api/client';
import { toast } from '../../api/toast';
import {
  envelopeResult,
  goToWechat,
  isBindTicket,
  loginWithWechat,
  readWechatReturn,
  spendOnce,
  takeWechatState,
  type WechatBindTicket,
  type WechatLoginResult,
} from '../../api/wechat';
import { postLoginTarget } from '../../router/guards';
import { LoadingOutlined } from '../../ui/icons/LoadingOutlined';
import { WechatOutlined } from '../../ui/icons/WechatOutlined';
import { Tooltip } from '../../ui/Tooltip';
import { LOGIN_TEXTS } from './texts';
import './WechatLogin.css';

const T = LOGIN_TEXTS.wechatFlow;

/**
 * 微信登录 under 其他登录方式: asks the server for WeChat's page and goes there. When the server says
 * WeChat sign-in is not offered, the entry turns into the disabled one with its explanation.
 */
export function WechatLoginButton() {
  const location = useLocation();
  const [going, setGoing] = useState(false);
  const [closed, setClosed] = useState(false);

  if (closed) {
    return (
      <Tooltip title={LOGIN_TEXTS.wechatClosed}>
        <span className="slg-oauth-item" aria-disabled="true" tabIndex={0}>
          <WechatOutlined className="slg-oauth-icon" />
          {LOGIN_TEXTS.wechat}
        </span>
      </Tooltip>
    );
  }

  async function go() {
    setGoing(true);
    try {
      // Only a redirect the console itself would follow travels along.
      await goToWechat('login', postLoginTarget(location.search, '') || undefined);
      // The browser is leaving; the button stays busy until it has.
    } catch (error) {
      // The client toasted the reason already.
      if (isApiError(error) && error.code === ErrorCodes.SERVICE_UNAVAILABLE.code) setClosed(true);
      setGoing(false);
    }
  }

  return (
    <button type="button" className="slg-oauth-button" onClick={() => void go()} disabled={going} aria-busy={going}>
      {going ? <LoadingOutlined className="slg-oauth-icon" /> : <WechatOutlined className="slg-oauth-icon slg-oauth-wechat" />}
      {going ? T.going : LOGIN_TEXTS.wechat}
    </button>
  );
}

/** Where the sign-in page stands with a return from WeChat. */
export type WechatLoginPhase = { kind: 'idle' } | { kind: 'pending' } | { kind: 'ticket'; ticket: WechatBindTicket };

type Outcome = { kind: 'cancelled' } | { kind: 'foreign' } | { kind: 'done'; result: WechatLoginResult } | { kind: 'failed'; message: string };

/**
 * Finishes a sign-in when WeChat sent the browser back to /login?wechat=1&code&state: takes code and
 * state out of the address at once, checks that this tab started the flow, spends the state once, and
 * signs in (`onSignedIn`) or offers to bind a phone (phase `ticket`).
 */
export function useWechatLoginReturn(onSignedIn: (pair: TokenPair) => void): [WechatLoginPhase, () => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<WechatLoginPhase>(() => {
    const back = readWechatReturn(location.search);
    return back?.code && back.state ? { kind: 'pending' } : { kind: 'idle' };
  });
  const finish = useEffectEvent((outcome: Outcome) => {
    if (outcome.kind === 'done' && isBindTicket(outcome.result)) {
      setPhase({ kind: 'ticket', ticket: outcome.result });
      return;
    }
    setPhase({ kind: 'idle' });
    if (outcome.kind === 'done') onSignedIn(outcome.result as TokenPair);
    else if (outcome.kind === 'cancelled') toast.warning(T.cancelled);
    else toast.error(outcome.kind === 'foreign' ? T.expired : outcome.message);
  });

  useEffect(() => {
    const back = readWechatReturn(location.search);
    if (!back) return;
    // Code and state leave the address (and the history) at once; `redirect` stays.
    navigate({ pathname: location.pathname, search: back.rest }, { replace: true });
    const { state, code } = back;
    if (!state) return;
    spendOnce<Outcome>(
      state,
      async () => {
        if (!takeWechatState('login', state)) return { kind: code ? 'foreign' : 'cancelled' };
        if (!code) return { kind: 'cancelled' };
        try {
          return { kind: 'done', result: envelopeResult(await loginWithWechat(state, code), T.failed) };
        } catch (error) {
          return { kind: 'failed', message: error instanceof Error && error.message ? error.message : T.failed };
        }
      },
      (outcome) => finish(outcome),
    );
  }, [location.pathname, location.search, navigate]);

  return [phase, () => setPhase({ kind: 'idle' })];
}

export function WechatLoginPending() {
  return (
    <div className="slg-wechat-pending" role="status">
      <LoadingOutlined />
      {T.pending}
    </div>
  );
}
