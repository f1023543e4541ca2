import { API_TOKEN_NAME_MAX, API_TOKEN_NAME_MESSAGE, API_TOKEN_NAME_PATTERN } from '@slg/shared';
import { Form, Input } from 'antd';
import { SETTING_TEXTS } from '../texts';

const T = SETTING_TEXTS.nameField;

/** The name of a token, checked by the server's rule before sending. */
export function TokenNameField() {
  return (
    <Form.Item
      name="name"
      label={T.label}
      extra={T.extra}
      rules={[
        { required: true, whitespace: true, message: T.required },
        {
          validator: async (_rule, value?: string) =>
            !value?.trim() || API_TOKEN_NAME_PATTERN.test(value.trim()) ? undefined : Promise.reject(new Error(API_TOKEN_NAME_MESSAGE)),
        },
      ]}
    >
      <Input placeholder={T.placeholder} maxLength={API_TOKEN_NAME_MAX} autoComplete="off" />
    </Form.Item>
  );
}

export interface TokenNameValues {
  name: string;
}
