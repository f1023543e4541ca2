import { BALANCE_COVER_HOURS, ELASTIC_NAME_PATTERN, ELASTIC_TYPES, formatYuan, labelOf, type ElasticTypeValue } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Modal, Radio, Skeleton, Typography } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { claimError } from '../../../api/client';
import { createElastic, invalidateAfterElasticChange, isElasticNameError, useElasticOverviewQuery } from '../../../api/elastic';
import { newIdempotencyKey } from '../../../api/idempotency';
import { toast } from '../../../api/toast';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { useMediaQuery } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { GpuNumField, ReplicaFields } from '../components/CountFields';
import { FilterSummary } from '../components/FilterSummary';
import { useElasticImages, type ElasticImages } from '../components/ImageSelect';
import { CommandField, EnvFields, FilterFields, ImageField, PortFields } from '../components/TemplateFields';
import '../elastic.css';
import { ELASTIC_PATHS, viewContainerPath } from '../paths';
import { concurrentContainers, createBody, estimateHourly, type CreateValues, type HourlyEstimate } from '../rules';
import { ELASTIC_TEXTS } from '../texts';
import { CREATE_ELASTIC_TEXTS } from './texts';

const T = CREATE_ELASTIC_TEXTS;
const E = ELASTIC_TEXTS;
/** Where the layout becomes one column (elastic.css) and the estimate falls below the form. */
const ONE_COLUMN_MEDIA_QUERY = '(max-width: 991.98px)';

const INITIAL_VALUES: CreateValues = {
  type: 'REPLICA_SET',
  name: '',
  gpuNum: 1,
  replicaNum: 1,
  parallelismNum: 1,
  env: [],
  ports: [],
  zoneIds: [],
  gpuModelIds: [],
  cudaMin: undefined,
  priceMaxFen: null,
  cmd: '',
};

/** The three types as cards, each with the line that says what it is for. */
function TypeCards({ value, onChange }: { value?: ElasticTypeValue; onChange?: (value: ElasticTypeValue) => void }) {
  return (
    <Radio.Group aria-label={E.fields.type} value={value} onChange={(event) => onChange?.(event.target.value as ElasticTypeValue)} className="slg-elastic-types">
      {ELASTIC_TYPES.map((item) => (
        <Radio key={item.value} value={item.value} className="slg-elastic-type">
          <span className="slg-elastic-type-label">
            <strong>{item.label}</strong>
            <Typography.Text type="secondary" className="slg-elastic-note">
              {E.typeLines[item.value]}
            </Typography.Text>
          </span>
        </Radio>
      ))}
    </Radio.Group>
  );
}

interface EstimateState {
  estimate: HourlyEstimate | null;
  containers: number;
  gpuNum: number;
  loading: boolean;
  failed: boolean;
  retry: () => void;
  balance: number | undefined;
}

/** The live estimate from the form's values and the stock. */
function useEstimate(images: ElasticImages): EstimateState {
  const overview = useElasticOverviewQuery();
  const balance = useBalanceQuery().data?.totalBalance;
  const type = Form.useWatch<ElasticTypeValue | undefined>('type') ?? 'REPLICA_SET';
  const gpuNum = Form.useWatch<number | null | undefined>('gpuNum') ?? 0;
  const replicaNum = Form.useWatch<number | null | undefined>('replicaNum') ?? 0;
  const parallelismNum = Form.useWatch<number | null | undefined>('parallelismNum') ?? 0;
  const zoneIds = Form.useWatch<string[] | undefined>('zoneIds') ?? [];
  const gpuModelIds = Form.useWatch<string[] | undefined>('gpuModelIds') ?? [];
  const cudaMin = Form.useWatch<string | null | undefined>('cudaMin') ?? undefined;
  const priceMaxFen = Form.useWatch<number | null | undefined>('priceMaxFen') ?? undefined;
  const imageId = Form.useWatch<string | undefined>('imageId');
  const containers = concurrentContainers(type, replicaNum, parallelismNum);
  const estimate = overview.data
    ? estimateHourly(overview.data.stock, { zoneIds, gpuModelIds, cudaMin, priceMaxFen, imageCuda: images.cudaOf(imageId) }, gpuNum, containers)
    : null;
  return {
    estimate,
    containers,
    gpuNum,
    loading: overview.isPending,
    failed: overview.isError && !overview.data,
    retry: () => void overview.refetch(),
    balance,
  };
}

/** 费用预估: cheapest matching price × GPUs × containers, the range, free stock and the balance rule. */
function EstimateCard({ state, submitting, onSubmit }: { state: EstimateState; submitting: boolean; onSubmit: () => void }) {
  const { estimate, containers, gpuNum, balance } = state;
  let body: ReactNode;
  if (state.loading) body = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else if (state.failed) {
    body = (
      <Alert
        type="warning"
        showIcon
        title={T.estimate.failed}
        action={
          <Button size="small" onClick={state.retry}>
            {T.estimate.retry}
          </Button>
        }
      />
    );
  } else if (!estimate) body = <Alert type="warning" showIcon title={T.estimate.noMatch} />;
  else {
    body = (
      <>
        <dl className="slg-elastic-price">
          <div>
            <dt>{T.estimate.containers}</dt>
            <dd>{T.estimate.containersValue(containers, gpuNum)}</dd>
          </div>
          <div>
            <dt>{T.estimate.cheapest}</dt>
            <dd>{E.perGpuHour(estimate.pricePerGpuHourFen)}</dd>
          </div>
          <div className="slg-elastic-price-total">
            <dt>{T.estimate.perHour}</dt>
            <dd aria-live="polite">{T.estimate.range(formatYuan(estimate.hourlyFen), formatYuan(estimate.maxHourlyFen))}</dd>
          </div>
          {balance !== undefined ? (
            <div>
              <dt>{T.estimate.balance}</dt>
              <dd>{formatYuan(balance)}</dd>
            </div>
          ) : null}
        </dl>
        {estimate.enoughFree ? null : <Alert type="info" showIcon className="slg-elastic-alert" title={T.estimate.notEnough(estimate.freeGpus, gpuNum * containers)} />}
        {balance !== undefined && balance < estimate.hourlyFen * BALANCE_COVER_HOURS ? (
          <Alert
            type="warning"
            showIcon
            className="slg-elastic-alert"
            title={T.estimate.short(formatYuan(estimate.hourlyFen * BALANCE_COVER_HOURS), formatYuan(balance))}
            action={
              <LinkButton size="small" type="primary" to={ELASTIC_PATHS.recharge}>
                {T.estimate.recharge}
              </LinkButton>
            }
          />
        ) : (
          <Typography.Paragraph type="secondary" className="slg-elastic-note">
            {T.estimate.cover(formatYuan(estimate.hourlyFen * BALANCE_COVER_HOURS))}
          </Typography.Paragraph>
        )}
      </>
    );
  }
  return (
    <Card title={T.estimate.title} className="slg-elastic-estimate-card">
      {body}
      <Typography.Paragraph type="secondary" className="slg-elastic-note slg-elastic-billing">
        {T.estimate.billing}
      </Typography.Paragraph>
      <Button type="primary" size="large" block loading={submitting} onClick={onSubmit}>
        {T.submit}
      </Button>
    </Card>
  );
}

/** Below two columns: the estimate and 创建部署 at the bottom of the screen while the form scrolls. */
function SubmitBar({ state, submitting, onSubmit }: { state: EstimateState; submitting: boolean; onSubmit: () => void }) {
  const { estimate } = state;
  return (
    <div className="slg-elastic-bar" role="region" aria-label={T.bar.label}>
      <div className="slg-elastic-bar-sum">
        <Typography.Text type="secondary">{T.bar.perHour}</Typography.Text>
        <strong aria-live="polite">{estimate ? T.estimate.range(formatYuan(estimate.hourlyFen), formatYuan(estimate.maxHourlyFen)) : E.empty}</strong>
      </div>
      <Button type="primary" loading={submitting} onClick={onSubmit}>
        {T.submit}
      </Button>
    </div>
  );
}

function ConfirmBody({ values, images, state }: { values: CreateValues; images: ElasticImages; state: EstimateState }) {
  const image =
    images.publicImages?.find((item) => item.id === values.imageId)?.name ?? images.privateImages?.find((item) => item.imageId === values.imageId)?.name ?? values.imageId;
  const containers =
    values.type === 'CONTAINER'
      ? T.confirm.container
      : values.type === 'JOB'
        ? T.confirm.job(values.replicaNum, Math.min(values.parallelismNum, values.replicaNum))
        : T.confirm.replicas(values.replicaNum);
  const rows: { label: string; value: ReactNode }[] = [
    { label: T.confirm.type, value: labelOf(ELASTIC_TYPES, values.type) },
    { label: T.confirm.name, value: values.name.trim() },
    { label: T.confirm.image, value: image },
    { label: T.confirm.spec, value: T.confirm.specValue(containers, values.gpuNum) },
    {
      label: T.confirm.filters,
      value: <FilterSummary filter={{ zoneIds: values.zoneIds ?? [], gpuModelIds: values.gpuModelIds ?? [], cudaMin: values.cudaMin, priceMaxFen: values.priceMaxFen }} />,
    },
    {
      label: T.confirm.estimate,
      value: state.estimate ? (
        <strong className="slg-elastic-money">{T.estimate.range(formatYuan(state.estimate.hourlyFen), formatYuan(state.estimate.maxHourlyFen))}</strong>
      ) : (
        <Typography.Text type="warning">{T.confirm.noEstimate}</Typography.Text>
      ),
    },
  ];
  return (
    <>
      <dl className="slg-elastic-summary">
        {rows.map((row) => (
          <div key={row.label}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
      <Typography.Paragraph type="secondary" className="slg-elastic-note">
        {T.confirm.billing}
      </Typography.Paragraph>
    </>
  );
}

function CreateForm() {
  const [form] = Form.useForm<CreateValues>();
  const images = useElasticImages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const oneColumn = useMediaQuery(ONE_COLUMN_MEDIA_QUERY);
  const [confirming, setConfirming] = useState<CreateValues | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const key = useRef<string>('');
  const type = Form.useWatch<ElasticTypeValue | undefined>('type', form) ?? 'REPLICA_SET';

  async function review() {
    try {
      const values = await form.validateFields();
      key.current = newIdempotencyKey();
      setConfirming(values);
    } catch {
      // antd shows each field's error; the first is scrolled to.
      form.scrollToField(form.getFieldsError().find((field) => field.errors.length > 0)?.name ?? 'name', { block: 'center' });
    }
  }

  async function create(values: CreateValues) {
    setSubmitting(true);
    try {
      const created = await createElastic(createBody(values), key.current);
      toast.success(T.done);
      await invalidateAfterElasticChange(queryClient);
      setConfirming(null);
      await navigate(viewContainerPath(created.deploymentUid));
    } catch (error) {
      setConfirming(null);
      if (isElasticNameError(error) && error instanceof Error) {
        claimError(error);
        form.setFields([{ name: 'name', errors: [error.message] }]);
        form.scrollToField('name', { block: 'center' });
      }
      // Anything else (balance, input the server refused) keeps the client's one toast.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Form<CreateValues> form={form} layout="vertical" requiredMark={false} initialValues={INITIAL_VALUES} name="elastic-create" onFinish={() => void review()}>
      <CreateLayout images={images} type={type} oneColumn={oneColumn} submitting={submitting} onSubmit={() => void review()} />
      <ConfirmModal confirming={confirming} images={images} submitting={submitting} onCancel={() => setConfirming(null)} onOk={(values) => void create(values)} />
    </Form>
  );
}

/** Inside the form (for its watched values): the sections and the estimate beside or below them. */
function CreateLayout({ images, type, oneColumn, submitting, onSubmit }: { images: ElasticImages; type: ElasticTypeValue; oneColumn: boolean; submitting: boolean; onSubmit: () => void }) {
  const overview = useElasticOverviewQuery();
  const state = useEstimate(images);
  return (
    <>
      <div className="slg-elastic-create">
        <div className="slg-elastic-create-main">
          <Card title={T.sections.basics}>
            <Form.Item name="type" label={E.fields.type}>
              <TypeCards />
            </Form.Item>
            <Form.Item
              name="name"
              label={E.fields.name}
              extra={T.nameExtra}
              rules={[
                { required: true, whitespace: true, message: E.fields.nameRequired },
                {
                  validator: async (_rule, value: string | undefined) => {
                    const name = value?.trim();
                    if (name && !ELASTIC_NAME_PATTERN.test(name)) throw new Error(T.nameExtra);
                  },
                },
              ]}
            >
              <Input maxLength={32} showCount placeholder={E.fields.namePlaceholder} autoComplete="off" />
            </Form.Item>
          </Card>
          <Card title={T.sections.resources}>
            <ImageField images={images} />
            <div className="slg-elastic-row">
              <GpuNumField />
              <ReplicaFields type={type} />
            </div>
            {type === 'CONTAINER' ? (
              <Typography.Paragraph type="secondary" className="slg-elastic-note">
                {E.fields.containerOne}
              </Typography.Paragraph>
            ) : null}
          </Card>
          <Card title={T.sections.filters}>
            <FilterFields stock={overview.data?.stock} stockFailed={overview.isError && !overview.data} />
          </Card>
          <Card title={T.sections.run}>
            <CommandField />
            <EnvFields />
            <PortFields />
          </Card>
        </div>
        <aside className="slg-elastic-create-side">
          <EstimateCard state={state} submitting={submitting} onSubmit={onSubmit} />
        </aside>
      </div>
      {oneColumn ? <SubmitBar state={state} submitting={submitting} onSubmit={onSubmit} /> : null}
    </>
  );
}

function ConfirmModal({
  confirming,
  images,
  submitting,
  onCancel,
  onOk,
}: {
  confirming: CreateValues | null;
  images: ElasticImages;
  submitting: boolean;
  onCancel: () => void;
  onOk: (values: CreateValues) => void;
}) {
  const state = useEstimate(images);
  return (
    <Modal
      open={confirming !== null}
      title={T.confirm.title}
      okText={T.confirm.ok}
      cancelText={T.confirm.cancel}
      confirmLoading={submitting}
      onOk={() => (confirming ? onOk(confirming) : undefined)}
      onCancel={onCancel}
      destroyOnHidden
    >
      {confirming ? <ConfirmBody values={confirming} images={images} state={state} /> : null}
    </Modal>
  );
}

/** 创建弹性部署: type, name, image, sizes, filters with live stock, what runs; the estimate before 确认创建. */
function CreateElasticPage() {
  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={<LinkButton to={ELASTIC_PATHS.list}>{T.back}</LinkButton>} />
      <CreateForm />
    </div>
  );
}

export default withAntd(CreateElasticPage);
