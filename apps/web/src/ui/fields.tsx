import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { EyeInvisibleOutlined } from './icons/EyeInvisibleOutlined';
import { EyeOutlined } from './icons/EyeOutlined';
import { UI_TEXTS } from './texts';

/**
 * A labelled form field: the label above its control and the field's message below it, in an element
 * (`<id>_help`) the control names with `aria-describedby`.
 */
export function Field({ id, label, error, children, className }: { id: string; label: ReactNode; error?: string; children: ReactNode; className?: string }) {
  return (
    <div className={['slg-field', error ? 'slg-field-has-error' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="slg-field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      <div id={`${id}_help`} className="slg-field-help">
        {error ? <div role="alert">{error}</div> : null}
      </div>
    </div>
  );
}

export type InputSize = 'middle' | 'large';

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'prefix' | 'onChange' | 'value'> {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  invalid?: boolean;
  /** Id of the element describing the field (its message). */
  describedBy?: string;
  size?: InputSize;
  /** Fixed text before the value, e.g. +86. */
  prefix?: ReactNode;
  /** A control after the value inside the box, e.g. the password's show button. */
  suffix?: ReactNode;
}

/** A text input in antd's look: a bordered box holding an optional prefix, the input and a suffix. */
export function TextInput({ value, onValueChange, invalid = false, describedBy, size = 'middle', prefix, suffix, className, disabled, ...inputProps }: TextInputProps) {
  return (
    <span
      className={[
        'slg-input',
        size === 'large' ? 'slg-input-large' : '',
        invalid ? 'slg-input-invalid' : '',
        disabled ? 'slg-input-disabled' : '',
        className ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {prefix ? <span className="slg-input-prefix">{prefix}</span> : null}
      <input
        {...inputProps}
        disabled={disabled}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      />
      {suffix ? <span className="slg-input-suffix">{suffix}</span> : null}
    </span>
  );
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordInput(props: Omit<TextInputProps, 'type' | 'suffix'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      suffix={
        <button
          type="button"
          className="slg-input-reveal"
          aria-label={visible ? UI_TEXTS.hidePassword : UI_TEXTS.showPassword}
          aria-pressed={visible}
          aria-controls={props.id}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
        </button>
      }
    />
  );
}
