import type { InputHTMLAttributes, ReactNode } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange' | 'checked'> {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  invalid?: boolean;
  describedBy?: string;
  children: ReactNode;
}

/** A native checkbox drawn like antd's; its label is the text (links inside it stay links). */
export function Checkbox({ checked, onCheckedChange, invalid = false, describedBy, children, className, ...inputProps }: CheckboxProps) {
  return (
    <label className={['slg-checkbox', className ?? ''].filter(Boolean).join(' ')}>
      <input
        {...inputProps}
        type="checkbox"
        checked={checked}
        onChange={(event) => onCheckedChange(event.target.checked)}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      />
      <span className="slg-checkbox-box" aria-hidden="true" />
      <span className="slg-checkbox-label">{children}</span>
    </label>
  );
}
