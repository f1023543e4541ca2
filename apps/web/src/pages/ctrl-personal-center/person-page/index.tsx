import { checkIdNumber, checkRealName, ErrorCodes, IDENTITY_MESSAGES } from '@slg/shared';
import { Form, Input } from 'antd';
import { submitPersonVerification, type PersonInput } from '../../../api/verification';
import { withAntd } from '../../../theme/AntdScope';
import { identityRule, messagesOn } from '../authentication/components/rules';
import { ConsentAndSubmit, useVerificationSubmit, VerifyFormShell } from '../authentication/components/VerifyFormShell';
import { PERSON_PAGE_TEXTS } from './texts';

const T = PERSON_PAGE_TEXTS;

interface PersonValues {
  realName: string;
  idNumber: string;
  agree: boolean;
}

const ID_MESSAGES = [
  IDENTITY_MESSAGES.idNumberRequired,
  IDENTITY_MESSAGES.idNumberFormat,
  IDENTITY_MESSAGES.idNumberRegion,
  IDENTITY_MESSAGES.idNumberBirthDate,
  IDENTITY_MESSAGES.idNumberFuture,
  IDENTITY_MESSAGES.idNumberAge,
  IDENTITY_MESSAGES.idNumberChecksum,
];
const NAME_MESSAGES = [IDENTITY_MESSAGES.realNameRequired, IDENTITY_MESSAGES.realNameFormat];

function PersonForm() {
  const [form] = Form.useForm<PersonValues>();
  const submit = useVerificationSubmit<PersonInput, 'realName' | 'idNumber'>(form, submitPersonVerification, {
    codes: { [ErrorCodes.IDENTITY_IN_USE.code]: 'idNumber' },
    messages: { ...messagesOn('idNumber', ID_MESSAGES), ...messagesOn('realName', NAME_MESSAGES) },
  });

  function onFinish(values: PersonValues) {
    const realName = checkRealName(values.realName);
    const idNumber = checkIdNumber(values.idNumber, new Date());
    if (!realName.ok || !idNumber.ok || submit.isPending) return;
    submit.mutate({ realName: realName.value, idNumber: idNumber.value });
  }

  return (
    <Form<PersonValues> form={form} name="person-verification" layout="vertical" requiredMark={false} onFinish={onFinish} className="slg-verify-form" validateTrigger="onBlur">
      <Form.Item name="realName" label={T.realName.label} extra={T.realName.extra} rules={[identityRule(checkRealName)]}>
        <Input placeholder={T.realName.placeholder} maxLength={30} autoComplete="name" />
      </Form.Item>
      <Form.Item name="idNumber" label={T.idNumber.label} extra={T.idNumber.extra} rules={[identityRule((value) => checkIdNumber(value, new Date()))]}>
        <Input placeholder={T.idNumber.placeholder} maxLength={24} autoComplete="off" className="slg-verify-mono" spellCheck={false} />
      </Form.Item>
      <ConsentAndSubmit busy={submit.isPending} />
    </Form>
  );
}

/** 个人认证: real name and resident ID number, checked here exactly as the server checks them. */
function PersonPage() {
  return (
    <VerifyFormShell kind="PERSON" title={T.title} description={T.description}>
      <PersonForm />
    </VerifyFormShell>
  );
}

export default withAntd(PersonPage);
