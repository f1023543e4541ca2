import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Tag, Typography } from 'antd';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { queryKeys } from '../../../api/queryKeys';
import { toast } from '../../../api/toast';
import { bindWechat, fetchWechatBinding, goToWechat, readWechatReturn, spendOnce, takeWechatState, unbindWechat } from '../../../api/wechat';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { ACCOUNT_SETTINGS_TEXTS } from './texts';

const T = ACCOUNT_SETTINGS_TEXTS.wechat;

/** What the 微信 row shows: its state, a hint and its action (index.tsx draws the row). */
export interface WechatBindingRow {
  state: ReactNode;
  hint: string;
  action: ReactNode;
}

type Outcome = 'bound' | 'cancelled' | 'foreign' | 'failed';

/**
 * Finishes a binding when WeChat sent the browser back here with `?wechat=1&code&state`: the address
 * is cleaned at once, the state must be the one this tab was given, and it is spent once.
 */
function useWechatBindReturn(onDone: (outcome: Outcome) => void): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const [binding, setBinding] = useState(() => {
    const back = readWechatReturn(location.search);
    return Boolean(back?.code && back.state);
  });
  const finish = useEffectEvent((outcome: Outcome) => {
    setBinding(false);
    onDone(outcome);
  });

  useEffect(() => {
    const back = readWechatReturn(location.search);
    if (!back) return;
    navigate({ pathname: location.pathname, search: back.rest }, { replace: true });
    const { state, code } = back;
    if (!state) return;
    spendOnce<Outcome>(
      state,
      async () => {
        if (!takeWechatState('bind', state)) return code ? 'foreign' : 'cancelled';
        if (!code) return 'cancelled';
        try {
          await bindWechat(state, code);
          return 'bound';
        } catch {
          // The client showed why (授权已过期, 该微信已绑定其他账号, …).
          return 'failed';
        }
      },
      (outcome) => finish(outcome),
    );
  }, [location.pathname, location.search, navigate]);

  return binding;
}

/**
 * 账号设置 → 微信: 未绑定 with 绑定 (to WeChat's page, back here), or 已绑定（昵称） with 解绑 after a
 * confirmation that names the effect. Main accounts only (sub-accounts sign in with their username).
 */
export function WechatBinding({ children }: { children: (row: WechatBindingRow) => ReactNode }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.wechatBinding, queryFn: fetchWechatBinding });
  const [going, setGoing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.wechatBinding });

  const binding = useWechatBindReturn((outcome) => {
    if (outcome === 'bound') toast.success(T.bindDone);
    else if (outcome === 'cancelled') toast.warning(T.cancelled);
    else if (outcome === 'foreign') toast.error(T.expired);
    void refresh();
  });

  async function bind() {
    setGoing(true);
    try {
      await goToWechat('bind');
    } catch {
      // The client toasted the reason.
      setGoing(false);
    }
  }

  const data = query.data;
  if (binding || (query.isPending && !data)) {
    return children({ state: <Tag>{binding ? T.binding : T.loading}</Tag>, hint: T.unboundHint, action: null });
  }
  if (!data) {
    return children({
      state: <Typography.Text type="danger">{T.loadFailed}</Typography.Text>,
      hint: T.unboundHint,
      action: <Button onClick={() => void query.refetch()}>{T.retry}</Button>,
    });
  }
  if (!data.bound) {
    return children({
      state: <Tag>{T.unbound}</Tag>,
      hint: T.unboundHint,
      action: (
        <Button type="primary" loading={going} onClick={() => void bind()}>
          {T.bind}
        </Button>
      ),
    });
  }
  return children({
    state: <Tag color="green">{T.bound(data.nickname)}</Tag>,
    hint: T.boundHint,
    action: (
      <ConfirmAction
        texts={T.unbindConfirm}
        danger
        onConfirm={async () => {
          await unbindWechat();
          toast.success(T.unbindDone);
          await refresh();
        }}
        trigger={(open) => <Button onClick={open}>{T.unbind}</Button>}
      >
        {T.unbindEffect(data.nickname)}
      </ConfirmAction>
    ),
  });
}
