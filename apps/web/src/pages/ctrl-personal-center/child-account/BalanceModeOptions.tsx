import { Radio } from 'antd';
import { CHILD_ACCOUNT_TEXTS } from './texts';

const T = CHILD_ACCOUNT_TEXTS.balanceModes;

/** 共用主账号余额 / 独立余额, each with what it means (a Form.Item child: value / onChange). */
export function BalanceModeOptions({ value, onChange, disabled }: { value?: boolean; onChange?: (shared: boolean) => void; disabled?: boolean }) {
  return (
    <Radio.Group value={value} disabled={disabled} onChange={(event) => onChange?.(event.target.value as boolean)} className="slg-child-balance-modes">
      <Radio value={false}>
        <span className="slg-child-balance-mode">
          {T.own}
          <small>{T.ownHint}</small>
        </span>
      </Radio>
      <Radio value={true}>
        <span className="slg-child-balance-mode">
          {T.shared}
          <small>{T.sharedHint}</small>
        </span>
      </Radio>
    </Radio.Group>
  );
}
