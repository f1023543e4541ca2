import { formatYuan, TIME_PACK_HOUR_CHOICES, TIME_PACK_MAX_HOURS, TIME_PACK_VALID_DAY_CHOICES, timePackPercent } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, InputNumber, Modal, Radio, Select, Skeleton, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useBalanceQuery } from '../../../api/account';
import {
  buyTimePack,
  invalidateAfterTimePackChange,
  refundTimePack,
  useTimePackQuoteQuery,
  useTimePackRefundPreviewQuery,
  type TimePackView,
} from '../../../api/elastic';
import { newIdempotencyKey } from '../../../api/idempotency';
import { useGpus } from '../../../api/meta';
import { toast } from '../../../api/toast';
import { LinkButton } from '../../../components/LinkButton';
import { QueryError } from '../../../components/QueryError';
import { ELASTIC_PATHS } from '../paths';
import { CUSTOM_HOURS as CUSTOM, chosenHours, discountLabel, gpuHours } from '../rules';
import { TIME_PACK_TEXTS } from './texts';

const T = TIME_PACK_TEXTS;
const B = T.buyDialog;
/** The hours from which a pack gets each discount (timePackPercent's steps). */
const TIER_HOURS = [50, 100, 500] as const;
function Figures({ rows }: { rows: { label: string; value: string; total?: boolean }[] }) {
  return (
    <dl className="slg-elastic-price">
      {rows.map((row) => (
        <div key={row.label} className={row.total ? 'slg-elastic-price-total' : undefined}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** 购买时长包: model, hours (a choice or a custom number), validity; the quote with its discount before 支付. */
export function BuyTimePackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const gpus = useGpus();
  const balance = useBalanceQuery(open).data?.totalBalance;
  const queryClient = useQueryClient();
  const [gpuModelId, setGpuModelId] = useState<string | undefined>(undefined);
  const [choice, setChoice] = useState<number | typeof CUSTOM>(TIME_PACK_HOUR_CHOICES[2]);
  const [custom, setCustom] = useState<number | null>(null);
  const [validDays, setValidDays] = useState<number>(TIME_PACK_VALID_DAY_CHOICES[0]);
  const [paying, setPaying] = useState(false);
  const [touched, setTouched] = useState(false);
  const key = useRef(newIdempotencyKey());
  const hours = chosenHours(choice, custom);
  const quote = useTimePackQuoteQuery(open ? gpuModelId : undefined, hours);
  const current = quote.data !== undefined && !quote.isPlaceholderData && !quote.isError;
  const price = current ? quote.data : undefined;
  const short = price !== undefined && balance !== undefined && balance < price.priceFen;

  async function pay() {
    setTouched(true);
    if (!gpuModelId || hours === null || !price) return;
    setPaying(true);
    try {
      await buyTimePack({ gpuModelId, hours, validDays }, key.current);
      key.current = newIdempotencyKey();
      toast.success(B.done);
      await invalidateAfterTimePackChange(queryClient);
      onClose();
    } catch {
      // The client showed the refusal (balance, input); the dialog stays.
    } finally {
      setPaying(false);
    }
  }

  let quoteBody;
  if (!gpuModelId || hours === null) quoteBody = null;
  else if (quote.isPending) quoteBody = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else if (quote.isError) {
    quoteBody = (
      <QueryError title={B.quoteFailed} error={quote.error} onRetry={() => void quote.refetch()} />
    );
  } else if (quote.data) {
    const label = discountLabel(timePackPercent(hours));
    quoteBody = (
      <div aria-busy={!current} className={current ? undefined : 'slg-elastic-stale'}>
        <Figures
          rows={[
            { label: B.unitPrice, value: `${formatYuan(quote.data.pricePerGpuHourFen)}/${B.hoursUnit}` },
            { label: B.original, value: formatYuan(quote.data.pricePerGpuHourFen * hours) },
            { label: B.discount, value: label ?? B.noDiscount },
            { label: B.payable, value: formatYuan(quote.data.priceFen), total: true },
            ...(balance !== undefined ? [{ label: B.balance, value: formatYuan(balance) }] : []),
          ]}
        />
        {short ? (
          <Alert
            type="warning"
            showIcon
            title={B.short(formatYuan(quote.data.priceFen), formatYuan(balance ?? 0))}
            action={
              <LinkButton size="small" type="primary" to={ELASTIC_PATHS.recharge}>
                {B.recharge}
              </LinkButton>
            }
          />
        ) : null}
      </div>
    );
  }

  return (
    <Modal
      open={open}
      title={B.title}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {B.cancel}
        </Button>,
        <Button key="pay" type="primary" loading={paying} disabled={!price || short} onClick={() => void pay()}>
          {price ? B.pay(formatYuan(price.priceFen)) : B.payWaiting}
        </Button>,
      ]}
    >
      <Form layout="vertical" requiredMark={false} onSubmitCapture={(event) => event.preventDefault()}>
        <Form.Item label={B.gpu} htmlFor="time-pack-gpu" validateStatus={touched && !gpuModelId ? 'error' : undefined} help={touched && !gpuModelId ? B.gpuRequired : undefined}>
          <Select
            id="time-pack-gpu"
            aria-label={B.gpu}
            placeholder={B.gpuPlaceholder}
            value={gpuModelId}
            loading={gpus.isPending}
            onChange={(value: string) => setGpuModelId(value)}
            options={(gpus.data ?? []).map((gpu) => ({ value: gpu.id, label: B.gpuOption(gpu.name, formatYuan(gpu.pricePerHourFen)) }))}
          />
        </Form.Item>
        <Form.Item
          label={B.hours}
          extra={TIER_HOURS.map((tier) => B.tier(tier, discountLabel(timePackPercent(tier)) ?? '')).join(B.tierSeparator)}
          validateStatus={choice === CUSTOM && hours === null && custom !== null ? 'error' : undefined}
          help={choice === CUSTOM && hours === null && custom !== null ? B.customRequired : undefined}
        >
          <div className="slg-elastic-stack">
            <Radio.Group
              aria-label={B.hours}
              optionType="button"
              value={choice}
              onChange={(event) => setChoice(event.target.value as number | typeof CUSTOM)}
              options={[...TIME_PACK_HOUR_CHOICES.map((value) => ({ value, label: B.hourOption(value) })), { value: CUSTOM, label: B.custom }]}
              className="slg-elastic-choices"
            />
            {choice === CUSTOM ? (
              <InputNumber<number>
                aria-label={B.customHours}
                min={1}
                max={TIME_PACK_MAX_HOURS}
                precision={0}
                value={custom}
                onChange={(value) => setCustom(value)}
                suffix={B.hoursUnit}
                className="slg-elastic-count"
              />
            ) : null}
          </div>
        </Form.Item>
        <Form.Item label={B.validDays} extra={B.validHint}>
          <Radio.Group
            aria-label={B.validDays}
            optionType="button"
            value={validDays}
            onChange={(event) => setValidDays(Number(event.target.value))}
            options={TIME_PACK_VALID_DAY_CHOICES.map((value) => ({ value, label: B.dayOption(value) }))}
            className="slg-elastic-choices"
          />
        </Form.Item>
      </Form>
      {quoteBody ? (
        <section className="slg-elastic-quote" aria-label={B.quote}>
          {quoteBody}
        </section>
      ) : null}
      <Typography.Paragraph type="secondary" className="slg-elastic-note">
        {B.note}
      </Typography.Paragraph>
    </Modal>
  );
}

/** 退款: the preview (实付 / 已用 / 退回) read when it opens; 确认退款 applies it. */
export function RefundTimePackDialog({ pack, onClose }: { pack: TimePackView | null; onClose: () => void }) {
  const preview = useTimePackRefundPreviewQuery(pack?.id ?? null);
  const queryClient = useQueryClient();
  const [refunding, setRefunding] = useState(false);
  const key = useRef(newIdempotencyKey());

  async function refund() {
    if (!pack) return;
    setRefunding(true);
    try {
      const result = await refundTimePack(pack.id, key.current);
      key.current = newIdempotencyKey();
      toast.success(T.refund.done(formatYuan(result.refund)));
      await invalidateAfterTimePackChange(queryClient);
      onClose();
    } catch {
      // The client showed the refusal; the dialog stays.
    } finally {
      setRefunding(false);
    }
  }

  let body;
  if (preview.isPending) body = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else if (preview.isError) body = <QueryError title={T.refund.loadFailed} error={preview.error} onRetry={() => void preview.refetch()} />;
  else {
    body = (
      <Figures
        rows={[
          { label: T.refund.paid, value: formatYuan(preview.data.paid) },
          { label: T.refund.used, value: formatYuan(preview.data.used) },
          { label: T.refund.refund, value: formatYuan(preview.data.refund), total: true },
        ]}
      />
    );
  }

  return (
    <Modal
      open={pack !== null}
      title={T.refund.title}
      onCancel={onClose}
      destroyOnHidden
      okText={T.refund.confirm}
      cancelText={T.refund.cancel}
      okButtonProps={{ danger: true, disabled: !preview.data }}
      confirmLoading={refunding}
      onOk={() => void refund()}
    >
      {pack ? <Typography.Paragraph>{T.refund.intro(pack.gpuModelName, gpuHours(pack.balanceSeconds))}</Typography.Paragraph> : null}
      {body}
      <Typography.Paragraph type="secondary" className="slg-elastic-note">
        {T.refund.after}
      </Typography.Paragraph>
    </Modal>
  );
}
