import { formatYuan } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Descriptions, Form, Input, Modal, Skeleton, Typography } from 'antd';
import { useBalanceQuery } from '../../../api/account';
import { invalidateMoneyQueries } from '../../../api/billing';
import { claimError, isApiError } from '../../../api/client';
import { invalidateSubAccounts, transferSubAccountBalance, type SubAccountView, type TransferDirection } from '../../../api/subAccounts';
import { toast } from '../../../api/toast';
import { parseYuanToFen } from '../../ctrl-cost-center/recharge/yuan';
import { CHILD_ACCOUNT_TEXTS } from './texts';

const T = CHILD_ACCOUNT_TEXTS.transfer;

/** The amount typed in yuan as fen, or the reason it cannot be sent. */
export function checkTransferAmount(input: string | undefined, available: number | undefined, direction: TransferDirection): { fen: number } | { error: string } {
  if (!input?.trim()) return { error: T.amountRequired };
  const fen = parseYuanToFen(input);
  if (fen === null) return { error: T.amountFormat };
  if (fen < 1) return { error: T.amountMin };
  if (available !== undefined && fen > available) return { error: direction === 'recharge' ? T.amountOverMain : T.amountOverSub };
  return { fen };
}

/** 充值 (main → sub) or 扣款 (sub → main): both balances shown, the amount in yuan sent as fen. */
export function TransferDialog({ sub, direction, onClose }: { sub: SubAccountView; direction: TransferDirection; onClose: () => void }) {
  const [form] = Form.useForm<{ amount: string }>();
  const queryClient = useQueryClient();
  const balance = useBalanceQuery();
  const D = T[direction];
  const mainBalance = balance.data?.totalBalance;
  const available = direction === 'recharge' ? mainBalance : sub.balance;

  const transfer = useMutation({
    mutationFn: (fen: number) => transferSubAccountBalance(sub.id, fen, direction),
    onSuccess: (result) => {
      toast.success(D.done(formatYuan(result.balance)));
      void invalidateSubAccounts(queryClient);
      void invalidateMoneyQueries(queryClient);
      onClose();
    },
    onError: (error) => {
      // The server's refusal (short balance, the amount's rule, a shared balance) is about the amount.
      if (isApiError(error) && (error.status === 400 || error.status === 409)) {
        claimError(error);
        form.setFields([{ name: 'amount', errors: [error.message] }]);
      }
    },
  });

  return (
    <Modal
      open
      title={D.title(sub.username)}
      okText={D.submit}
      cancelText={T.cancel}
      confirmLoading={transfer.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={480}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{D.intro}</Typography.Paragraph>
      <Descriptions
        size="small"
        column={1}
        bordered
        className="slg-child-transfer-balances"
        items={[
          { key: 'main', label: T.mainBalance, children: mainBalance === undefined ? <Skeleton.Input size="small" active /> : formatYuan(mainBalance) },
          { key: 'sub', label: T.subBalance, children: formatYuan(sub.balance) },
        ]}
      />
      <Form<{ amount: string }>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => {
          const checked = checkTransferAmount(values.amount, available, direction);
          if ('fen' in checked) transfer.mutate(checked.fen);
        }}
      >
        <Form.Item
          name="amount"
          label={T.amount}
          rules={[
            {
              validator: async (_rule, value?: string) => {
                const checked = checkTransferAmount(value, available, direction);
                if ('error' in checked) throw new Error(checked.error);
              },
            },
          ]}
        >
          <Input prefix="¥" inputMode="decimal" placeholder={T.amountPlaceholder} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
