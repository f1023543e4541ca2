import { ArrowLeftOutlined } from '@ant-design/icons';
import { formatYuan, INVOICE_TYPES, type InvoiceTypeValue, type InvoicingMethodValue } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Radio, Skeleton, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { billingKeys } from '../../../api/billing';
import {
  createInvoice,
  INVOICE_MIN_FEN,
  specialInvoiceBlocker,
  useInvoiceableQuery,
  useInvoiceProfileQuery,
  type InvoiceableDto,
  type InvoiceProfileDto,
} from '../../../api/invoices';
import { toast } from '../../../api/toast';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import '../costCenter.css';
import { INVOICE_APPLY_TEXTS } from './invoiceApplyTexts';
import { COST_PATHS } from './paths';
import { PAGE_SIZE } from './useListState';

const T = INVOICE_APPLY_TEXTS;

export interface InvoiceApplyConfig<Row extends object> {
  method: InvoicingMethodValue;
  texts: { title: string; description: string; tableTitle: string; empty: string; emptyAction: string; emptyActionPath: string };
  rows: (data: InvoiceableDto) => Row[];
  rowKey: (row: Row) => string;
  invoiceableOf: (row: Row) => number;
  columns: TableColumnsType<Row>;
  /** Most rows one request may hold. */
  maxSelection: number;
}

/** The sum of the invoiceable amounts of the selected rows (integer fen). */
export function selectedTotal<Row>(rows: readonly Row[], keys: readonly string[], rowKey: (row: Row) => string, invoiceableOf: (row: Row) => number): number {
  const chosen = new Set(keys);
  return rows.reduce((sum, row) => (chosen.has(rowKey(row)) ? sum + invoiceableOf(row) : sum), 0);
}

function ProfileSummary({ profile }: { profile: InvoiceProfileDto | null }) {
  if (!profile) {
    return (
      <Alert
        type="warning"
        showIcon
        title={T.profile.missing}
        action={
          <LinkButton to={COST_PATHS.invoiceInfo} size="small" type="primary">
            {T.profile.fill}
          </LinkButton>
        }
      />
    );
  }
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, md: 2 }}
      items={[
        {
          key: 'title',
          label: T.profile.title,
          children: `${profile.title}（${profile.titleType === 'ENTERPRISE' ? T.profile.enterprise : T.profile.personal}）`,
        },
        ...(profile.taxNo ? [{ key: 'taxNo', label: T.profile.taxNo, children: profile.taxNo }] : []),
        { key: 'email', label: T.profile.email, children: profile.email },
      ]}
    />
  );
}

interface ApplyValues {
  type: InvoiceTypeValue;
  remark?: string;
}

function ApplyForm<Row extends object>({
  config,
  data,
  profile,
}: {
  config: InvoiceApplyConfig<Row>;
  data: InvoiceableDto;
  profile: InvoiceProfileDto | null;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ApplyValues>();
  const [selected, setSelected] = useState<string[]>([]);
  const rows = config.rows(data);
  const total = selectedTotal(rows, selected, config.rowKey, config.invoiceableOf);
  const specialBlocker = specialInvoiceBlocker(profile, T.type.specialBlocked, T.type.fieldLabels);
  const tooMany = selected.length > config.maxSelection;
  const belowMin = selected.length > 0 && total < INVOICE_MIN_FEN;

  const submit = useMutation({
    mutationFn: (values: ApplyValues) =>
      createInvoice({
        method: config.method,
        type: values.type,
        ...(config.method === 'RECHARGE' ? { rechargeIds: selected } : { months: selected }),
        remark: values.remark?.trim() || undefined,
      }),
    onSuccess: () => {
      toast.success(T.submitted);
      void queryClient.invalidateQueries({ queryKey: billingKeys.invoices });
      void navigate(COST_PATHS.invoice);
    },
  });

  let problem: ReactNode = null;
  if (tooMany) problem = T.tooMany(config.maxSelection);
  else if (belowMin) problem = T.belowMin(formatYuan(INVOICE_MIN_FEN));

  return (
    <>
      <Card title={config.texts.tableTitle} className="slg-cost-card">
        <Table<Row>
          rowKey={config.rowKey}
          columns={config.columns}
          dataSource={rows}
          scroll={{ x: 'max-content' }}
          pagination={{ pageSize: PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(String)),
            getCheckboxProps: (row) => ({ disabled: config.invoiceableOf(row) <= 0, 'aria-label': T.selectRow(config.rowKey(row)) }),
          }}
          locale={{
            emptyText: (
              <Empty description={config.texts.empty}>
                <LinkButton to={config.texts.emptyActionPath} type="primary">
                  {config.texts.emptyAction}
                </LinkButton>
              </Empty>
            ),
          }}
        />
      </Card>
      <Card className="slg-cost-card">
        <Form<ApplyValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ type: 'ORDINARY' }}
          onFinish={(values) => submit.mutate(values)}
          style={{ maxWidth: 640 }}
        >
          <Form.Item name="type" label={T.type.label} extra={specialBlocker ?? undefined}>
            <Radio.Group
              options={INVOICE_TYPES.map((item) => ({
                value: item.value,
                label: item.label,
                disabled: item.value === 'SPECIAL' && specialBlocker !== null,
              }))}
            />
          </Form.Item>
          <Form.Item name="remark" label={T.remark} rules={[{ max: 200 }]}>
            <Input.TextArea placeholder={T.remarkPlaceholder} maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
          {problem ? <Alert type="warning" showIcon title={problem} className="slg-cost-alert" /> : null}
          <Space size={24} wrap align="center">
            <span>
              <Typography.Text type="secondary">
                {T.selected(selected.length)}，{T.totalLabel}：
              </Typography.Text>
              <Typography.Text strong className="slg-price-total" aria-live="polite">
                {formatYuan(total)}
              </Typography.Text>
            </span>
            <Button
              type="primary"
              htmlType="submit"
              loading={submit.isPending}
              disabled={!profile || selected.length === 0 || tooMany || belowMin}
            >
              {T.submit}
            </Button>
          </Space>
        </Form>
      </Card>
    </>
  );
}

/** An invoice application page: pick rows with an invoiceable amount, the invoice type, submit. */
export function InvoiceApply<Row extends object>({ config }: { config: InvoiceApplyConfig<Row> }) {
  const invoiceable = useInvoiceableQuery();
  const profile = useInvoiceProfileQuery();

  let body;
  if (invoiceable.isPending || profile.isPending) {
    body = (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  } else if (invoiceable.isError || profile.isError) {
    const failed = invoiceable.isError ? invoiceable : profile;
    body = (
      <QueryError
        variant="page"
        title={invoiceable.isError ? T.loadFailed : T.profile.failed}
        error={failed.error}
        onRetry={() => void failed.refetch()}
      />
    );
  } else {
    body = (
      <>
        <Card
          title={T.profile.title}
          className="slg-cost-card"
          extra={profile.data ? <LinkButton to={COST_PATHS.invoiceInfo} type="link">{T.profile.edit}</LinkButton> : null}
        >
          <ProfileSummary profile={profile.data} />
        </Card>
        <ApplyForm config={config} data={invoiceable.data} profile={profile.data} />
      </>
    );
  }

  return (
    <div className="slg-page">
      <PageHeader
        title={config.texts.title}
        description={config.texts.description}
        back={
          <LinkButton to={COST_PATHS.invoice} type="text" icon={<ArrowLeftOutlined aria-hidden />}>
            {T.back}
          </LinkButton>
        }
      />
      {body}
    </div>
  );
}
