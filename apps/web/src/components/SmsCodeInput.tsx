import { Input, Space } from 'antd';
import type { ChangeEvent } from 'react';
import { FORM_TEXTS } from '../forms/texts';
import { SmsCodeButton } from './SmsCodeButton';

interface SmsCodeInputProps {
  /** Injected by Form.Item. */
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  remaining: number;
  sending: boolean;
  onSend: () => void;
}

/** Code input and its send button as one control; Form.Item's label points at the input. */
export function SmsCodeInput({ id, value, onChange, remaining, sending, onSend }: SmsCodeInputProps) {
  return (
    <Space.Compact block>
      <Input
        id={id}
        value={value}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange?.(event.target.value.replace(/\D/g, ''))}
        placeholder={FORM_TEXTS.code.placeholder}
        maxLength={6}
        inputMode="numeric"
        autoComplete="one-time-code"
      />
      <SmsCodeButton remaining={remaining} sending={sending} onClick={onSend} />
    </Space.Compact>
  );
}
