import { checkCreditCode, checkRealName, ENTERPRISE_NAME_MAX, ENTERPRISE_NAME_MIN, ErrorCodes, IDENTITY_MESSAGES } from '@slg/shared';
import { Alert, Form, Input } from 'antd';
import { useState } from 'react';
import { submitEnterpriseVerification, type EnterpriseInput, type UploadedFile } from '../../../api/verification';
import { withAntd } from '../../../theme/AntdScope';
import { AUTHENTICATION_TEXTS } from '../authentication/texts';
import { CredentialUpload } from '../authentication/components/CredentialUpload';
import { identityRule, messagesOn } from '../authentication/components/rules';
import { ConsentAndSubmit, useVerificationSubmit, VerifyFormShell } from '../authentication/components/VerifyFormShell';
import { ENTER_PAGE_TEXTS } from './texts';

const T = ENTER_PAGE_TEXTS;

interface EnterpriseValues {
  enterpriseName: string;
  creditCode: string;
  legalPerson?: string;
  licence?: UploadedFile;
  agree: boolean;
}

const CODE_MESSAGES = [IDENTITY_MESSAGES.creditCodeRequired, IDENTITY_MESSAGES.creditCodeFormat, IDENTITY_MESSAGES.creditCodeChecksum];
const NAME_MESSAGES = [IDENTITY_MESSAGES.realNameRequired, IDENTITY_MESSAGES.realNameFormat];

function EnterpriseForm() {
  const [form] = Form.useForm<EnterpriseValues>();
  const [uploading, setUploading] = useState(false);
  const submit = useVerificationSubmit<EnterpriseInput, 'enterpriseName' | 'creditCode' | 'legalPerson'>(form, submitEnterpriseVerification, {
    codes: { [ErrorCodes.IDENTITY_IN_USE.code]: 'creditCode' },
    messages: { ...messagesOn('creditCode', CODE_MESSAGES), ...messagesOn('legalPerson', NAME_MESSAGES), [T.enterpriseName.length]: 'enterpriseName' },
  });

  function onFinish(values: EnterpriseValues) {
    const code = checkCreditCode(values.creditCode);
    const legalPerson = values.legalPerson?.trim() ? checkRealName(values.legalPerson) : null;
    if (!code.ok || !values.licence || (legalPerson && !legalPerson.ok) || submit.isPending || uploading) return;
    submit.mutate({
      enterpriseName: values.enterpriseName.trim().replace(/\s+/g, ' '),
      creditCode: code.value,
      ...(legalPerson?.ok ? { legalPerson: legalPerson.value } : {}),
      licenceUploadId: values.licence.id,
    });
  }

  return (
    <Form<EnterpriseValues> form={form} name="enterprise-verification" layout="vertical" requiredMark={false} onFinish={onFinish} className="slg-verify-form" validateTrigger="onBlur">
      <Alert type="info" showIcon title={T.institutions} className="slg-verify-institutions" />
      <Form.Item
        name="enterpriseName"
        label={T.enterpriseName.label}
        rules={[
          { required: true, whitespace: true, message: T.enterpriseName.required },
          { min: ENTERPRISE_NAME_MIN, max: ENTERPRISE_NAME_MAX, message: T.enterpriseName.length },
        ]}
      >
        <Input placeholder={T.enterpriseName.placeholder} maxLength={ENTERPRISE_NAME_MAX} autoComplete="organization" />
      </Form.Item>
      <Form.Item name="creditCode" label={T.creditCode.label} rules={[identityRule(checkCreditCode)]}>
        <Input placeholder={T.creditCode.placeholder} maxLength={24} autoComplete="off" spellCheck={false} className="slg-verify-mono" />
      </Form.Item>
      <Form.Item
        name="legalPerson"
        label={T.legalPerson.label}
        rules={[
          {
            validator: (_rule, value: string | undefined) => {
              if (!value?.trim()) return Promise.resolve();
              const result = checkRealName(value);
              return result.ok ? Promise.resolve() : Promise.reject(new Error(result.message));
            },
          },
        ]}
      >
        <Input placeholder={T.legalPerson.placeholder} maxLength={30} />
      </Form.Item>
      <Form.Item name="licence" label={T.licence.label} extra={`${T.licence.extra}。${AUTHENTICATION_TEXTS.upload.hint}`} validateTrigger="onChange" rules={[{ required: true, message: T.licence.required }]}>
        <CredentialUpload name="licence" purpose="LICENCE" label={T.licence.label} onBusyChange={setUploading} />
      </Form.Item>
      <ConsentAndSubmit busy={submit.isPending || uploading} />
    </Form>
  );
}

/** 企业认证: name, unified social credit code (checked as the server checks it), legal person and the licence. */
function EnterPage() {
  return (
    <VerifyFormShell kind="ENTERPRISE" title={T.title} description={T.description}>
      <EnterpriseForm />
    </VerifyFormShell>
  );
}

export default withAntd(EnterPage);
