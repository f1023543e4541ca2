import { formatYuan } from '@slg/shared';
import { useQuery } from '@tanstack/react-query';
import { fetchBalance } from '../api/account';
import { queryKeys } from '../api/queryKeys';
import { visibleTo } from '../router/menus';
import { findRoute } from '../router/routes';
import { sessionSnapshot } from '../session/session';
import { useUserStore } from '../stores/user';
import { Button, ButtonLink } from '../ui/Button';
import { Spinner } from '../ui/feedback';
import { ReloadOutlined } from '../ui/icons/ReloadOutlined';
import { Tooltip } from '../ui/Tooltip';
import { LAYOUT_TEXTS } from './texts';

const T = LAYOUT_TEXTS.dashboard;
const RECHARGE_PATH = '/ctrl-cost-center/cost-center/recharge';

/**
 * 充值 next to the balance, when the recharge page exists and the session may open it. An outlined
 * button in the primary *text* colour, which keeps 4.5:1 against the header in dark mode too.
 */
function RechargeButton() {
  const state = useUserStore();
  const route = findRoute(RECHARGE_PATH);
  if (!route?.page || !visibleTo(route, sessionSnapshot(state))) return null;
  return (
    <ButtonLink to={RECHARGE_PATH} size="small" variant="primary" ghost>
      {T.recharge}
    </ButtonLink>
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
      <span className="slg-balance-label slg-hide-sm">{T.balanceLabel}</span>
      {balance.isPending ? (
        <Spinner />
      ) : balance.isError ? (
        <Tooltip title={T.balanceFailed}>
          <Button size="small" variant="text" icon={<ReloadOutlined />} aria-label={T.balanceFailed} onClick={() => void balance.refetch()}>
            --
          </Button>
        </Tooltip>
      ) : (
        <strong role="status" aria-label={T.balance} className="slg-balance-amount">
          {formatYuan(balance.data.totalBalance)}
        </strong>
      )}
      <RechargeButton />
    </span>
  );
}
