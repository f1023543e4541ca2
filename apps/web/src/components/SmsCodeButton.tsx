import { Button } from '../ui/Button';
import { COMPONENT_TEXTS } from './texts';

interface SmsCodeButtonProps {
  remaining: number;
  sending: boolean;
  onClick: () => void;
}

/** 获取验证码, then "N秒后重新获取" while the countdown runs. */
export function SmsCodeButton({ remaining, sending, onClick }: SmsCodeButtonProps) {
  const waiting = remaining > 0;
  return (
    <Button size="large" onClick={onClick} loading={sending} disabled={waiting} className="slg-sms-button">
      {waiting ? COMPONENT_TEXTS.sms.resend(remaining) : COMPONENT_TEXTS.sms.send}
    </Button>
  );
}
