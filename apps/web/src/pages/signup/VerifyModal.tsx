import { TELEPHONE_PATTERN } from '@slg/shared';
import { useState } from 'react';
import { FORM_TEXTS } from '../../forms/texts';
import { ConfirmDialog } from '../../ui/Dialog';
import { Alert } from '../../ui/feedback';
import { MobileOutlined } from '../../ui/icons/MobileOutlined';
import { SIGNUP_TEXTS } from './texts';

interface VerifyModalProps {
  open: boolean;
  telephone: string | undefined;
  sending: boolean;
  /** Sends the code; rejects with the error to show. */
  onConfirm: (telephone: string) => Promise<void>;
  onClose: () => void;
}

/** The SMS verification step of sign-up: confirm the number, then the code is sent to it. */
export function VerifyModal({ open, telephone, sending, onConfirm, onClose }: VerifyModalProps) {
  const T = SIGNUP_TEXTS.verify;
  const [error, setError] = useState<string | null>(null);
  const valid = typeof telephone === 'string' && TELEPHONE_PATTERN.test(telephone);

  async function confirm() {
    if (!valid) return;
    setError(null);
    try {
      await onConfirm(telephone);
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : null);
    }
  }

  function close() {
    setError(null);
    onClose();
  }

  return (
    <ConfirmDialog open={open} texts={T} loading={sending} onConfirm={() => void confirm()} onClose={close} confirmDisabled={!valid}>
      {valid ? (
        <>
          <p className="slg-muted">{T.intro}</p>
          <p className="slg-verify-phone">
            <MobileOutlined /> {FORM_TEXTS.telephone.prefix} {telephone}
          </p>
        </>
      ) : (
        <Alert type="warning" title={T.noPhone} />
      )}
      {error ? <Alert type="error" title={error} className="slg-verify-error" /> : null}
    </ConfirmDialog>
  );
}
