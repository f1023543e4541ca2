import { Button, Card, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../api/toast';
import { bindSubAccountPhone } from '../../../api/user';
import { SmsCodeField } from '../../../components/SmsCodeField';
import { TelephoneField } from '../../../components/TelephoneField';
import { smsCodeRules, telephoneRules } from '../../../forms/rules';
import type { ServerErrorFields } from '../../../forms/serverErrors';
import { useForm } from '../../../forms/useForm';
import { useFormSmsCode } from '../../../hooks/useFormSmsCode';
import { useSubmit } from '../../../hooks/useSubmit';
import { CHILD_ACCOUNT_INFO_TEXTS } from './texts';

const T = CHILD_ACCOUNT_INFO_TEXTS.phone;

interface PhoneValues {
  telephone: string;
  code: string;
}

/** A phone held by another account (40900) and send limits belong to 手机号; wrong codes to 验证码. */
const SEND_FIELDS: ServerErrorFields<keyof PhoneValues> = { 40000: 'telephone', 40022: 'telephone', 40900: 'telephone', 42901: 'telephone', 42902: 'telephone' };
const BIND_FIELDS: ServerErrorFields<keyof PhoneValues> = { 40010: 'code', 40011: 'code', 40900: 'telephone' };

function BindPhoneForm({ onBound, queryKey }: { onBound: () => void; queryKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const form = useForm<PhoneValues>({
    name: 'sub-account-phone',
    initialValues: { telephone: '', code: '' },
    rules: { telephone: telephoneRules, code: smsCodeRules },
  });
  const sms = useFormSmsCode(form, 'bind', SEND_FIELDS);
  const { submitting, onFinish } = useSubmit(form, BIND_FIELDS, async (values: PhoneValues) => {
    await bindSubAccountPhone(values);
    toast.success(T.success);
    await queryClient.invalidateQueries({ queryKey });
    onBound();
  });
  return (
    <form id={form.name} className="slg-child-password-form" noValidate onSubmit={form.handleSubmit((values) => void onFinish(values))}>
      <TelephoneField form={form} autoComplete="tel-national" />
      <SmsCodeField form={form} sms={sms} />
      <Button type="primary" htmlType="submit" loading={submitting}>
        {T.submit}
      </Button>
    </form>
  );
}

/** 绑定手机: the phone a sub-account resets a forgotten password with (子账号找回密码). */
export function PhoneCard({ maskedTelephone, queryKey }: { maskedTelephone: string; queryKey: readonly unknown[] }) {
  const [editing, setEditing] = useState(false);
  const [generation, setGeneration] = useState(0);
  const bound = maskedTelephone !== '';
  return (
    <Card title={T.title} className="slg-child-card slg-child-area-phone">
      <div className="slg-child-phone-status">
        {bound ? <Typography.Text strong>{maskedTelephone}</Typography.Text> : <Tag>{T.unbound}</Tag>}
        {bound && !editing ? (
          <Button size="small" onClick={() => setEditing(true)}>
            {T.change}
          </Button>
        ) : null}
      </div>
      <Typography.Paragraph type="secondary">{T.hint}</Typography.Paragraph>
      {!bound || editing ? (
        <BindPhoneForm
          key={generation}
          queryKey={queryKey}
          onBound={() => {
            setEditing(false);
            setGeneration((value) => value + 1);
          }}
        />
      ) : null}
    </Card>
  );
}
