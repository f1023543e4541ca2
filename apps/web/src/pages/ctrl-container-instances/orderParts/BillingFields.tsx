import { CHARGING_RULES, packageKeyOfRule, TIME_PACKAGE_COUNTS, USAGE_CHARGING_RULE_ID, type OrderTypeValue } from '@slg/shared';
import { Checkbox, Form, Radio } from 'antd';
import { useState } from 'react';
import { CREATE_INSTANCE_TEXTS } from '../createInstances/texts';
import { VoucherSelect } from '../VoucherSelect';

const T = CREATE_INSTANCE_TEXTS;

export interface BillingFieldsValue {
  chargingRuleId: number;
  rentAmount: number;
  voucherId: number | undefined;
  autoRenew: boolean;
}

/** The billing choice of a new instance's form, starting from what a draft (the URL) carries: 按量 by default. */
export function useBillingChoice(draft: Partial<BillingFieldsValue>) {
  return useState<BillingFieldsValue>(() => ({
    chargingRuleId: draft.chargingRuleId ?? USAGE_CHARGING_RULE_ID,
    rentAmount: draft.rentAmount ?? 1,
    voucherId: draft.voucherId,
    autoRenew: draft.autoRenew ?? false,
  }));
}

interface BillingFieldsProps {
  /** Keeps the radio groups and the voucher field of one page apart from another's (`create`, `clone`). */
  idPrefix: string;
  /** The order the voucher would pay. */
  orderType: OrderTypeValue;
  value: BillingFieldsValue;
  /** The undiscounted price of the current choice (the vouchers that fit depend on it). */
  amountFen: number | undefined;
  onChange: (next: BillingFieldsValue) => void;
}

/**
 * 计费方式 of a new instance (created or cloned): 按量 or a package with its duration, a voucher and
 * 到期自动续费. Changing the rule starts the duration again; changing either drops the voucher (it may
 * no longer fit).
 */
export function BillingFields({ idPrefix, orderType, value, amountFen, onChange }: BillingFieldsProps) {
  const packageKey = packageKeyOfRule(value.chargingRuleId);
  return (
    <>
      <Form.Item label={T.billing.label} extra={packageKey ? T.billing.packageHint : T.billing.usageHint}>
        <Radio.Group
          aria-label={T.billing.label}
          name={`${idPrefix}-charging-rule`}
          optionType="button"
          value={value.chargingRuleId}
          onChange={(event) => onChange({ ...value, chargingRuleId: Number(event.target.value), rentAmount: 1, voucherId: undefined })}
          options={CHARGING_RULES.map((rule) => ({ value: rule.id, label: rule.showName }))}
        />
      </Form.Item>
      {packageKey ? (
        <>
          <Form.Item label={T.package.duration}>
            <Radio.Group
              aria-label={T.package.duration}
              name={`${idPrefix}-rent-amount`}
              optionType="button"
              className="slg-create-counts"
              value={value.rentAmount}
              onChange={(event) => onChange({ ...value, rentAmount: Number(event.target.value), voucherId: undefined })}
              options={TIME_PACKAGE_COUNTS[packageKey].map((count) => ({ value: count, label: T.package.count(count, packageKey) }))}
            />
          </Form.Item>
          <Form.Item label={T.package.voucher} htmlFor={`${idPrefix}-voucher`}>
            <VoucherSelect
              id={`${idPrefix}-voucher`}
              orderType={orderType}
              amountFen={amountFen}
              value={value.voucherId}
              onChange={(voucherId) => onChange({ ...value, voucherId })}
            />
          </Form.Item>
          <Form.Item extra={T.package.autoRenewHint}>
            <Checkbox checked={value.autoRenew} onChange={(event) => onChange({ ...value, autoRenew: event.target.checked })}>
              {T.package.autoRenew}
            </Checkbox>
          </Form.Item>
        </>
      ) : null}
    </>
  );
}
