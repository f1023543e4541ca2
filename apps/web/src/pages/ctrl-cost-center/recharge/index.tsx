import { AlipayCircleOutlined, BankOutlined, WechatOutlined } from '@ant-design/icons';
import { formatYuan, labelOf, PAYMENT_CHANNELS, type PaymentChannelValue } from '@slg/shared';
import { Alert, Button, Card, Col, Form, Input, Radio, Row, Skeleton, Space, Typography } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useBalanceQuery } from '../../../api/account';
import { usePaymentChannelsQuery } from '../../../api/billing';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import '../costCenter.css';
import { COST_PATHS } from '../shared/paths';
import { BankAccountDescriptions, RechargeModal } from './RechargeModal';
import { RECHARGE_TEXTS } from './texts';
import { useRechargeFlow } from './useRechargeFlow';
import { checkRechargeAmount, fenToYuanInput } from './yuan';
import { withAntd } from '../../../theme/AntdScope';

const T = RECHARGE_TEXTS;

/** Preset amounts in fen: ¥50 … ¥5,000. */
export const RECHARGE_PRESETS_FEN = [5_000, 10_000, 20_000, 50_000, 100_000, 500_000] as const;

const CHANNEL_ICONS: Record<PaymentChannelValue, ReactNode> = {
  WXPAY: <WechatOutlined aria-hidden className="slg-recharge-channel-icon" style={{ color: '#07c160' }} />,
  ALIPAY: <AlipayCircleOutlined aria-hidden className="slg-recharge-channel-icon" style={{ color: '#1677ff' }} />,
  BANK: <BankOutlined aria-hidden className="slg-recharge-channel-icon" />,
};

interface RechargeForm {
  amount: string;
  channel: PaymentChannelValue;
}

function BalanceSide({ offered }: { offered: readonly PaymentChannelValue[] }) {
  const balance = useBalanceQuery();
  const qrNames = offered.filter((value) => value !== 'BANK').map((value) => labelOf(PAYMENT_CHANNELS, value)).join('、');
  return (
    <Card title={T.side.balance}>
      {balance.isPending ? (
        <Skeleton active title={false} paragraph={{ rows: 1 }} />
      ) : balance.isError ? (
        <QueryError title={T.side.balanceFailed} error={balance.error} onRetry={() => void balance.refetch()} />
      ) : (
        <div className="slg-cost-stat-value">{formatYuan(balance.data.totalBalance)}</div>
      )}
      <ul className="slg-recharge-tips">
        {T.side.tips(qrNames, offered.includes('BANK')).map((tip) => (
          <li key={tip}>
            <Typography.Text type="secondary">{tip}</Typography.Text>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** 充值: amount (presets or yuan input), channel, then the payment dialog that polls until paid. */
function RechargePage() {
  const [form] = Form.useForm<RechargeForm>();
  const channels = usePaymentChannelsQuery();
  const flow = useRechargeFlow();
  const amountText = Form.useWatch('amount', form) ?? '';
  const channel = Form.useWatch('channel', form);
  const checked = checkRechargeAmount(amountText);
  const presetValue = checked.ok && (RECHARGE_PRESETS_FEN as readonly number[]).includes(checked.fen) ? checked.fen : undefined;

  const offered = channels.data?.channels.filter((value) => PAYMENT_CHANNELS.some((item) => item.value === value)) ?? [];
  const firstOffered = offered[0];
  useEffect(() => {
    if (firstOffered && !form.getFieldValue('channel')) form.setFieldValue('channel', firstOffered);
  }, [firstOffered, form]);

  async function onFinish(values: RechargeForm) {
    const result = checkRechargeAmount(values.amount);
    if (!result.ok) return;
    await flow.start(result.fen, values.channel);
  }

  let channelContent: ReactNode;
  if (channels.isPending) {
    channelContent = <Skeleton.Button active size="large" style={{ width: 320 }} />;
  } else if (channels.isError) {
    channelContent = <QueryError title={T.channelsFailed} error={channels.error} onRetry={() => void channels.refetch()} />;
  } else if (offered.length === 0) {
    channelContent = <Alert type="warning" showIcon title={T.noChannels} />;
  } else {
    channelContent = (
      <Form.Item name="channel" label={T.channelLabel} rules={[{ required: true, message: T.channelRequired }]}>
        <Radio.Group className="slg-recharge-channels">
          {offered.map((value) => (
            <Radio key={value} value={value} className="slg-recharge-channel">
              {CHANNEL_ICONS[value]}
              {labelOf(PAYMENT_CHANNELS, value)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
    );
  }

  const bankAccount = channels.data?.bankAccount ?? null;

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description({ qr: offered.some((value) => value !== 'BANK'), bank: offered.includes('BANK') })}
        extra={
          <LinkButton to={COST_PATHS.rechargeRecord}>{T.records}</LinkButton>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<RechargeForm>
            form={form}
            layout="vertical"
            requiredMark={false}
            initialValues={{ amount: fenToYuanInput(RECHARGE_PRESETS_FEN[1]) }}
            onFinish={(values) => void onFinish(values)}
          >
            <Card title={T.amountCard} className="slg-cost-card">
              <Form.Item label={T.presets}>
                <Radio.Group
                  className="slg-recharge-presets"
                  optionType="button"
                  value={presetValue}
                  onChange={(event) => {
                    form.setFieldValue('amount', fenToYuanInput(Number(event.target.value)));
                    void form.validateFields(['amount']);
                  }}
                  options={RECHARGE_PRESETS_FEN.map((fen) => ({ value: fen, label: formatYuan(fen).replace('.00', '') }))}
                />
              </Form.Item>
              <Form.Item
                name="amount"
                label={T.amountLabel}
                extra={T.amountHint}
                rules={[
                  {
                    validator: (_rule, value: string | undefined) => {
                      const result = checkRechargeAmount(value);
                      return result.ok ? Promise.resolve() : Promise.reject(new Error(T.amountErrors[result.error]));
                    },
                  },
                ]}
              >
                <Input
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder={T.amountPlaceholder}
                  prefix="¥"
                  suffix={T.amountSuffix}
                  maxLength={12}
                  style={{ maxWidth: 320 }}
                />
              </Form.Item>
            </Card>
            <Card title={T.channelCard} className="slg-cost-card">
              {channelContent}
              {channel === 'BANK' ? (
                <Space orientation="vertical" size={12} style={{ width: '100%' }}>
                  <Typography.Text strong>{T.bank.title}</Typography.Text>
                  {bankAccount ? <BankAccountDescriptions account={bankAccount} /> : <Alert type="warning" showIcon title={T.bank.unavailable} />}
                  <Typography.Text type="secondary">{T.bank.intro}</Typography.Text>
                </Space>
              ) : null}
            </Card>
            <Card className="slg-cost-card">
              <Space size={24} wrap align="center">
                <span>
                  <Typography.Text type="secondary">{T.payable}：</Typography.Text>
                  <Typography.Text strong className="slg-recharge-payable">
                    {checked.ok ? formatYuan(checked.fen) : '-'}
                  </Typography.Text>
                </span>
                <Button
                  type="primary"
                  size="large"
                  htmlType="submit"
                  loading={flow.step.kind === 'creating'}
                  disabled={offered.length === 0}
                >
                  {T.submit}
                </Button>
              </Space>
            </Card>
          </Form>
        </Col>
        <Col xs={24} xl={8}>
          <BalanceSide offered={offered} />
        </Col>
      </Row>
      <RechargeModal
        step={flow.step}
        bankAccount={bankAccount}
        pollFailing={flow.pollFailing}
        referencePending={flow.referencePending}
        onSubmitReference={flow.submitReference}
        onClose={flow.close}
      />
    </div>
  );
}

export default withAntd(RechargePage);
