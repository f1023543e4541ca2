import { ArrowLeftOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Divider, Form, Input, Radio, Skeleton, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { billingKeys } from '../../../api/billing';
import { saveInvoiceProfile, useInvoiceProfileQuery, type InvoiceProfileDto } from '../../../api/invoices';
import { toast } from '../../../api/toast';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import '../costCenter.css';
import { COST_PATHS } from '../shared/paths';
import { BANK_ACCOUNT_PATTERN, PHONE_PATTERN, TAX_NO_PATTERN, toForm, toProfile, type InvoiceProfileForm } from './profileForm';
import { INVOICE_INFO_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = INVOICE_INFO_TEXTS;
const F = T.fields;
const R = T.rules;

function ProfileForm({ profile }: { profile: InvoiceProfileDto | null }) {
  const [form] = Form.useForm<InvoiceProfileForm>();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const titleType = Form.useWatch('titleType', form) ?? profile?.titleType ?? 'PERSONAL';
  const enterprise = titleType === 'ENTERPRISE';

  const save = useMutation({
    mutationFn: saveInvoiceProfile,
    onSuccess: (saved) => {
      queryClient.setQueryData(billingKeys.invoiceProfile, saved);
      toast.success(T.saved);
      void navigate(COST_PATHS.invoice);
    },
  });

  return (
    <Form<InvoiceProfileForm>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '112px' }}
      wrapperCol={{ flex: 'auto' }}
      style={{ maxWidth: 640 }}
      initialValues={toForm(profile)}
      onFinish={(values) => save.mutate(toProfile(values))}
    >
      <Form.Item name="titleType" label={F.titleType} rules={[{ required: true }]}>
        <Radio.Group
          options={[
            { value: 'PERSONAL', label: F.personal },
            { value: 'ENTERPRISE', label: F.enterprise },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="title"
        label={F.title}
        rules={[
          { required: true, whitespace: true, message: R.titleRequired },
          { max: 100, message: R.titleMax },
        ]}
      >
        <Input placeholder={enterprise ? F.titleEnterprisePlaceholder : F.titlePersonalPlaceholder} maxLength={100} />
      </Form.Item>
      {/* Always registered, so the rule holds whatever the render timing; shown for enterprise titles. */}
      <Form.Item
        name="taxNo"
        label={F.taxNo}
        hidden={!enterprise}
        required={enterprise}
        dependencies={['titleType']}
        normalize={(value: string) => value.toUpperCase().replace(/\s/g, '')}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) => {
              if (getFieldValue('titleType') !== 'ENTERPRISE') return Promise.resolve();
              if (!value) return Promise.reject(new Error(R.taxNoRequired));
              return TAX_NO_PATTERN.test(value) ? Promise.resolve() : Promise.reject(new Error(R.taxNoFormat));
            },
          }),
        ]}
      >
        <Input placeholder={F.taxNoPlaceholder} maxLength={20} className="slg-cost-mono" />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {F.specialSection}
      </Divider>
      <Typography.Paragraph type="secondary">{T.specialHint}</Typography.Paragraph>
      <Form.Item name="bankName" label={F.bankName} rules={[{ max: 100, message: R.bankNameMax }]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item
        name="bankAccount"
        label={F.bankAccount}
        rules={[
          {
            validator: (_rule, value: string | undefined) =>
              !value?.trim() || BANK_ACCOUNT_PATTERN.test(value.trim()) ? Promise.resolve() : Promise.reject(new Error(R.bankAccountFormat)),
          },
        ]}
      >
        <Input maxLength={40} inputMode="numeric" />
      </Form.Item>
      <Form.Item name="address" label={F.address} rules={[{ max: 200, message: R.addressMax }]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item
        name="phone"
        label={F.phone}
        rules={[
          {
            validator: (_rule, value: string | undefined) =>
              !value?.trim() || PHONE_PATTERN.test(value.trim()) ? Promise.resolve() : Promise.reject(new Error(R.phoneFormat)),
          },
        ]}
      >
        <Input maxLength={32} inputMode="tel" />
      </Form.Item>
      <Form.Item
        name="email"
        label={F.email}
        rules={[
          { required: true, whitespace: true, message: R.emailRequired },
          { type: 'email', message: R.emailFormat },
        ]}
      >
        <Input placeholder={F.emailPlaceholder} maxLength={100} inputMode="email" autoComplete="email" />
      </Form.Item>
      <Form.Item label={null} colon={false}>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {T.save}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** 发票信息: the invoice title and receiving e-mail (PUT /invoice/info). */
function InvoiceInfoPage() {
  const query = useInvoiceProfileQuery();
  let body;
  if (query.isPending) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (query.isError) body = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  else
    body = (
      <>
        {query.data ? null : <Alert type="info" showIcon title={T.firstTime} className="slg-cost-alert" />}
        <ProfileForm profile={query.data} />
      </>
    );

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        back={
          <LinkButton to={COST_PATHS.invoice} type="text" icon={<ArrowLeftOutlined aria-hidden />}>
            {T.back}
          </LinkButton>
        }
      />
      <Card>{body}</Card>
    </div>
  );
}

export default withAntd(InvoiceInfoPage);
