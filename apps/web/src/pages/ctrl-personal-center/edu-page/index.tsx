import { checkRealName, ErrorCodes, IDENTITY_MESSAGES, SCHOOL_NAME_MAX, SCHOOL_NAME_MIN, STUDENT_NO_MESSAGE, STUDENT_NO_PATTERN } from '@slg/shared';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { submitStudentVerification, type StudentInput, type UploadedFile } from '../../../api/verification';
import { withAntd } from '../../../theme/AntdScope';
import { AUTHENTICATION_TEXTS } from '../authentication/texts';
import { CredentialUpload } from '../authentication/components/CredentialUpload';
import { identityRule, messagesOn } from '../authentication/components/rules';
import { ConsentAndSubmit, useVerificationSubmit, VerifyFormShell } from '../authentication/components/VerifyFormShell';
import { EDU_PAGE_TEXTS } from './texts';

const T = EDU_PAGE_TEXTS;

interface StudentValues {
  realName: string;
  school: string;
  studentNo: string;
  card?: UploadedFile;
  agree: boolean;
}

const NAME_MESSAGES = [IDENTITY_MESSAGES.realNameRequired, IDENTITY_MESSAGES.realNameFormat];

function StudentForm() {
  const [form] = Form.useForm<StudentValues>();
  const [uploading, setUploading] = useState(false);
  const submit = useVerificationSubmit<StudentInput, 'realName' | 'school' | 'studentNo'>(form, submitStudentVerification, {
    // The same student number of the school on another account.
    codes: { [ErrorCodes.IDENTITY_IN_USE.code]: 'studentNo' },
    messages: { ...messagesOn('realName', NAME_MESSAGES), [T.school.length]: 'school', [STUDENT_NO_MESSAGE]: 'studentNo' },
  });

  function onFinish(values: StudentValues) {
    const realName = checkRealName(values.realName);
    if (!realName.ok || !values.card || submit.isPending || uploading) return;
    submit.mutate({ realName: realName.value, school: values.school.trim().replace(/\s+/g, ' '), studentNo: values.studentNo.trim(), cardUploadId: values.card.id });
  }

  return (
    <Form<StudentValues> form={form} name="student-verification" layout="vertical" requiredMark={false} onFinish={onFinish} className="slg-verify-form" validateTrigger="onBlur">
      <Form.Item name="realName" label={T.realName.label} rules={[identityRule(checkRealName)]}>
        <Input placeholder={T.realName.placeholder} maxLength={30} autoComplete="name" />
      </Form.Item>
      <Form.Item
        name="school"
        label={T.school.label}
        rules={[
          { required: true, whitespace: true, message: T.school.required },
          { min: SCHOOL_NAME_MIN, max: SCHOOL_NAME_MAX, message: T.school.length },
        ]}
      >
        <Input placeholder={T.school.placeholder} maxLength={SCHOOL_NAME_MAX} autoComplete="organization" />
      </Form.Item>
      <Form.Item name="studentNo" label={T.studentNo.label} rules={[{ required: true, message: STUDENT_NO_MESSAGE }, { pattern: STUDENT_NO_PATTERN, message: STUDENT_NO_MESSAGE }]}>
        <Input placeholder={T.studentNo.placeholder} maxLength={32} autoComplete="off" spellCheck={false} className="slg-verify-mono" />
      </Form.Item>
      <Form.Item name="card" label={T.card.label} extra={`${T.card.extra}。${AUTHENTICATION_TEXTS.upload.hint}`} validateTrigger="onChange" rules={[{ required: true, message: T.card.required }]}>
        <CredentialUpload name="card" purpose="STUDENT_CARD" label={T.card.label} onBusyChange={setUploading} />
      </Form.Item>
      <ConsentAndSubmit busy={submit.isPending || uploading} />
    </Form>
  );
}

/** 学生认证 (edu-page): real name, school, student number and the student card. */
function EduPage() {
  return (
    <VerifyFormShell kind="STUDENT" title={T.title} description={T.description}>
      <StudentForm />
    </VerifyFormShell>
  );
}

export default withAntd(EduPage);
