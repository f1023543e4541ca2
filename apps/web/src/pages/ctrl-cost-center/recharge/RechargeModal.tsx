import { ExportOutlined } from '@ant-design/icons';
import { formatYuan, labelOf, PAYMENT_CHANNELS } from '@slg/shared';
import { Alert, Button, Descriptions, Form, Input, Modal, QRCode, Result, Space, Spin, Typography } from 'antd';
import { LinkButton } from '../../../components/LinkButton';
import type { BankAccountDto, RechargeDto } from '../../../api/billing';
import { COST_PATHS } from '../shared/paths';
import type { RechargeStep } from './rechargeFlow';
import { RECHARGE_TEXTS } from './texts';

const T = RECHARGE_TEXTS;
const REFERENCE_MIN = 4;
const REFERENCE_MAX = 64;

interface RechargeModalProps {
  step: RechargeStep;
  bankAccount: BankAccountDto | null;
  pollFailing: boolean;
  referencePending: boolean;
  onSubmitReference: (rechargeId: string, reference: string) => Promise<unknown>;
  onClose: () => void;
  /** 查看充值记录 in the results (left out where the dialog opens over 充值记录 itself). */
  showRecordsLink?: boolean;
}

export function BankAccountDescriptions({ account }: { account: BankAccountDto }) {
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      items={[
        { key: 'bankName', label: T.bank.bankName, children: account.bankName },
        { key: 'accountName', label: T.bank.accountName, children: <Typography.Text copyable>{account.accountName}</Typography.Text> },
        {
          key: 'accountNo',
          label: T.bank.accountNo,
          children: (
            <Typography.Text copyable className="slg-cost-mono">
              {account.accountNo}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}

function QrPayment({ recharge, pollFailing }: { recharge: RechargeDto; pollFailing: boolean }) {
  const channel = recharge.channel === 'ALIPAY' ? T.channelHints.ALIPAY : T.channelHints.WXPAY;
  const qrValue = recharge.qrCode ?? recharge.payUrl;
  return (
    <div className="slg-recharge-pay">
      <Typography.Text type="secondary">{T.pay.amount}</Typography.Text>
      <div className="slg-recharge-pay-amount">{formatYuan(recharge.amount)}</div>
      {qrValue ? (
        <div className="slg-recharge-qr">
          <QRCode value={qrValue} type="svg" size={200} color="#000000" bgColor="#ffffff" bordered={false} role="img" aria-label={T.pay.scan(channel)} />
        </div>
      ) : null}
      <Typography.Text>{T.pay.scan(channel)}</Typography.Text>
      {recharge.payUrl ? (
        <a href={recharge.payUrl} target="_blank" rel="noopener noreferrer">
          <ExportOutlined aria-hidden /> {T.pay.openPage}
        </a>
      ) : null}
      <Space size={8} role="status">
        <Spin size="small" />
        <Typography.Text type="secondary">{pollFailing ? T.pay.pollFailed : T.pay.waiting}</Typography.Text>
      </Space>
      <Typography.Text type="secondary" className="slg-cost-mono">
        {T.pay.rechargeId(recharge.rechargeId)}
      </Typography.Text>
    </div>
  );
}

function BankTransfer({
  recharge,
  bankAccount,
  pending,
  onSubmit,
  onLater,
}: {
  recharge: RechargeDto;
  bankAccount: BankAccountDto | null;
  pending: boolean;
  onSubmit: (reference: string) => Promise<unknown>;
  onLater: () => void;
}) {
  const [form] = Form.useForm<{ reference: string }>();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {T.bank.intro}
      </Typography.Paragraph>
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          {
            key: 'rechargeId',
            label: T.bank.rechargeId,
            children: (
              <Typography.Text copyable className="slg-cost-mono">
                {recharge.rechargeId}
              </Typography.Text>
            ),
          },
          { key: 'amount', label: T.bank.amount, children: <Typography.Text strong>{formatYuan(recharge.amount)}</Typography.Text> },
        ]}
      />
      {bankAccount ? <BankAccountDescriptions account={bankAccount} /> : <Alert type="warning" showIcon title={T.bank.unavailable} />}
      <Alert type="info" showIcon title={T.bank.remark} />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => {
          onSubmit(values.reference.trim()).catch(() => undefined);
        }}
      >
        <Form.Item
          name="reference"
          label={T.bank.referenceLabel}
          rules={[
            { required: true, whitespace: true, message: T.bank.referenceRequired },
            {
              validator: (_rule, value: string | undefined) => {
                const length = value?.trim().length ?? 0;
                return length === 0 || (length >= REFERENCE_MIN && length <= REFERENCE_MAX)
                  ? Promise.resolve()
                  : Promise.reject(new Error(T.bank.referenceLength));
              },
            },
          ]}
        >
          <Input placeholder={T.bank.referencePlaceholder} maxLength={REFERENCE_MAX} autoComplete="off" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={pending}>
            {T.bank.submitReference}
          </Button>
          <Button onClick={onLater}>{T.bank.later}</Button>
        </Space>
      </Form>
    </Space>
  );
}

function titleOf(step: RechargeStep): string {
  if (step.kind === 'bank' || step.kind === 'bankSubmitted') return T.pay.bankModalTitle;
  if (step.kind === 'paying') return T.pay.modalTitle(labelOf(PAYMENT_CHANNELS, step.recharge.channel));
  return T.title;
}

/** The payment dialog of a created recharge: QR code and polling, bank transfer, or the result. */
export function RechargeModal({ step, bankAccount, pollFailing, referencePending, onSubmitReference, onClose, showRecordsLink = true }: RechargeModalProps) {
  const open = step.kind !== 'idle' && step.kind !== 'creating';
  const recordsLink = showRecordsLink ? (
    <LinkButton key="records" to={COST_PATHS.rechargeRecord}>{T.pay.viewRecords}</LinkButton>
  ) : null;

  let content = null;
  if (step.kind === 'paying') {
    content = <QrPayment recharge={step.recharge} pollFailing={pollFailing} />;
  } else if (step.kind === 'success') {
    content = (
      <Result
        status="success"
        title={T.pay.successTitle}
        subTitle={T.pay.successSubtitle(formatYuan(step.recharge.amount))}
        extra={[
          <Button key="done" type="primary" onClick={onClose}>
            {T.pay.done}
          </Button>,
          recordsLink,
        ]}
      />
    );
  } else if (step.kind === 'failed') {
    content = (
      <Result
        status="error"
        title={T.pay.failedTitle}
        subTitle={step.recharge.failureReason || T.pay.failedSubtitle}
        extra={[
          <Button key="again" type="primary" onClick={onClose}>
            {T.pay.again}
          </Button>,
          recordsLink,
        ]}
      />
    );
  } else if (step.kind === 'bank') {
    const rechargeId = step.recharge.rechargeId;
    content = (
      <BankTransfer
        recharge={step.recharge}
        bankAccount={bankAccount}
        pending={referencePending}
        onSubmit={(reference) => onSubmitReference(rechargeId, reference)}
        onLater={onClose}
      />
    );
  } else if (step.kind === 'bankSubmitted') {
    content = (
      <Result
        status="success"
        title={T.bank.submittedTitle}
        subTitle={T.bank.submittedSubtitle}
        extra={[
          <Button key="done" type="primary" onClick={onClose}>
            {T.pay.done}
          </Button>,
          recordsLink,
        ]}
      />
    );
  }

  return (
    <Modal open={open} title={titleOf(step)} footer={null} onCancel={onClose} mask={{ closable: false }} destroyOnHidden width={step.kind === 'bank' ? 560 : 440} centered>
      {content}
    </Modal>
  );
}
