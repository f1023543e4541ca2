import { GiftOutlined } from '@ant-design/icons';
import { formatYuan } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Form, Input, Result, Row, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { invalidateMoneyQueries } from '../../api/billing';
import { redeemCode, type RedeemResultDto } from '../../api/vouchers';
import { LinkButton } from '../../components/LinkButton';
import { PageHeader } from '../../components/PageHeader';
import { loginRedirectPath } from '../../router/guards';
import { useUserStore } from '../../stores/user';
import { COST_PATHS } from '../ctrl-cost-center/shared/paths';
import { EXCHANGE_TEXTS } from './texts';
import { withAntd } from '../../theme/AntdScope';

const T = EXCHANGE_TEXTS;

/** A typed code as sent: trimmed, upper case, inner spaces removed. */
export function normalizeRedeemCode(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

function Redeemed({ result, onAgain }: { result: RedeemResultDto; onAgain: () => void }) {
  const amount = formatYuan(result.amount);
  const voucher = result.kind === 'VOUCHER' ? result.voucher : null;
  const subTitle =
    result.kind === 'VOUCHER'
      ? [T.success.voucher(amount, voucher?.name ?? ''), voucher ? T.success.voucherValidity(dayjs(voucher.validTo).format('YYYY-MM-DD')) : null]
          .filter(Boolean)
          .join('，')
      : T.success.balance(amount);
  return (
    <Result
      status="success"
      title={T.success.title}
      subTitle={subTitle}
      extra={[
        result.kind === 'VOUCHER' ? (
          <LinkButton key="view" type="primary" to={COST_PATHS.voucher}>
            {T.success.viewVouchers}
          </LinkButton>
        ) : (
          <LinkButton key="view" type="primary" to={COST_PATHS.incomeDetails}>
            {T.success.viewLedger}
          </LinkButton>
        ),
        <Button key="again" onClick={onAgain}>
          {T.success.again}
        </Button>,
      ]}
    />
  );
}

function RedeemForm() {
  const [form] = Form.useForm<{ code: string }>();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<RedeemResultDto | null>(null);

  const redeem = useMutation({
    mutationFn: (code: string) => redeemCode(code, T.failed),
    onSuccess: (outcome) => {
      if (outcome.ok) {
        setResult(outcome.result);
        form.resetFields();
        void invalidateMoneyQueries(queryClient);
      } else {
        form.setFields([{ name: 'code', errors: [outcome.message] }]);
      }
    },
    // A refused code comes back as an envelope and goes on the field above; a failure to reach the
    // server is not about the code and keeps the client's one toast.
  });

  if (result) return <Redeemed result={result} onAgain={() => setResult(null)} />;

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => redeem.mutate(normalizeRedeemCode(values.code))} style={{ maxWidth: 480 }}>
      <Form.Item
        name="code"
        label={T.codeLabel}
        normalize={(value: string) => normalizeRedeemCode(value)}
        rules={[{ required: true, message: T.codeRequired }]}
      >
        <Input placeholder={T.codePlaceholder} maxLength={64} autoComplete="off" spellCheck={false} className="slg-cost-mono" size="large" />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" loading={redeem.isPending} icon={<GiftOutlined aria-hidden />}>
        {T.submit}
      </Button>
    </Form>
  );
}

/** 兑换码兑换 (/exchange): redeem a code for a voucher or balance; needs a session to redeem. */
function ExchangePage() {
  const loggedIn = useUserStore((state) => Boolean(state.token));
  const location = useLocation();
  const navigate = useNavigate();

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card>
            {loggedIn ? (
              <RedeemForm />
            ) : (
              <Result
                status="info"
                title={T.loginTitle}
                subTitle={T.loginSubtitle}
                extra={
                  <Button type="primary" onClick={() => void navigate(loginRedirectPath(location))}>
                    {T.login}
                  </Button>
                }
              />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={T.tips.title}>
            <ul style={{ margin: 0, paddingLeft: 18, display: 'grid', gap: 8 }}>
              {T.tips.items.map((tip) => (
                <li key={tip}>
                  <Typography.Text type="secondary">{tip}</Typography.Text>
                </li>
              ))}
            </ul>
          </Card>
        </Col>
      </Row>
    </div>
  );
}

export default withAntd(ExchangePage);
