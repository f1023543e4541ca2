import { ReloadOutlined } from '@ant-design/icons';
import { formatYuan } from '@slg/shared';
import { Button, Spin, Tooltip, Typography } from 'antd';
import { useBalanceQuery } from '../api/account';
import { LAYOUT_TEXTS } from './texts';

const T = LAYOUT_TEXTS.dashboard;

/** The header balance (GET /api/v1/account/), labelled 账户余额. */
export function BalanceIndicator() {
  const balance = useBalanceQuery();
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
    </span>
  );
}
