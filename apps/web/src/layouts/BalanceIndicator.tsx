import { ReloadOutlined } from '@ant-design/icons';
import { formatYuan } from '@slg/shared';
import { Button, Spin, Tooltip, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { fetchBalance } from '../api/account';
import { queryKeys } from '../api/queryKeys';
import { visibleTo } from '../router/menus';
import { findRoute } from '../router/routes';
import { sessionSnapshot } from '../session/session';
import { useUserStore } from '../stores/user';
import { LAYOUT_TEXTS } from './texts';

const T = LAYOUT_TEXTS.dashboard;
const RECHARGE_PATH = '/ctrl-cost-center/cost-center/recharge';

/** 充值 next to the balance, when the recharge page exists and the session may open it. */
function RechargeButton() {
  const navigate = useNavigate();
  const state = useUserStore();
  const route = findRoute(RECHARGE_PATH);
  if (!route?.page || !visibleTo(route, sessionSnapshot(state))) return null;
  return (
    <Button size="small" type="primary" ghost onClick={() => void navigate(RECHARGE_PATH)}>
      {T.recharge}
    </Button>
  );
}

/**
 * The header balance (GET /api/v1/account/), labelled 账户余额. It loads again whenever the tab gets the
 * focus back (the user may have paid in another tab), and whenever a page that sees money move
 * (a recharge paid or confirmed, an order paid) invalidates it.
 */
export function BalanceIndicator() {
  const balance = useQuery({ queryKey: queryKeys.balance, queryFn: fetchBalance, refetchOnWindowFocus: 'always' });
  return (
    <span className="slg-balance">
      <Typography.Text type="secondary" className="slg-hide-sm">
        {T.balanceLabel}
      </Typography.Text>
      {balance.isPending ? (
        <Spin size="small" />
      ) : balance.isError ? (
        <Tooltip title={T.balanceFailed}>
          <Button size="small" type="text" icon={<ReloadOutlined />} aria-label={T.balanceFailed} onClick={() => void balance.refetch()}>
            --
          </Button>
        </Tooltip>
      ) : (
        <Typography.Text strong role="status" aria-label={T.balance} className="slg-balance-amount">
          {formatYuan(balance.data.totalBalance)}
        </Typography.Text>
      )}
      <RechargeButton />
    </span>
  );
}
