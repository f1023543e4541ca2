import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { fetchHumanCheckChallenge, type HumanCheckChallenge } from '../api/auth';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Alert, Spinner } from '../ui/feedback';
import { COMPONENT_TEXTS } from './texts';
import './HumanCheckDialog.css';

export interface HumanCheckDialogProps {
  open: boolean;
  /** The solution sent before was refused (wrong, expired or used): say so above a fresh check. */
  failed: boolean;
  /** The check is solved: the string the server verifies (ALTCHA payload, vendor ticket). */
  onSolved: (solution: string) => void;
  onCancel: () => void;
}

type Stage = { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; challenge: HumanCheckChallenge };

interface AltchaVerifiedEvent extends Event {
  detail?: { payload?: unknown };
}

/** The self-hosted ALTCHA widget (a web component), created once its code was loaded lazily. */
function AltchaWidget({ challenge, language, onSolved, onExpired }: {
  challenge: Extract<HumanCheckChallenge, { provider: 'altcha' }>['altcha'];
  language: string;
  onSolved: (payload: string) => void;
  onExpired: () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = host.current;
    if (!container) return undefined;
    const widget = document.createElement('altcha-widget');
    widget.setAttribute('language', language);
    widget.setAttribute('configuration', JSON.stringify({ challenge, hideFooter: false, hideLogo: false }));
    const verified = (event: Event) => {
      const payload = (event as AltchaVerifiedEvent).detail?.payload;
      if (typeof payload === 'string' && payload !== '') onSolved(payload);
    };
    widget.addEventListener('verified', verified);
    widget.addEventListener('expired', onExpired);
    container.appendChild(widget);
    return () => {
      widget.removeEventListener('verified', verified);
      widget.removeEventListener('expired', onExpired);
      widget.remove();
    };
  }, [challenge, language, onSolved, onExpired]);
  return <div ref={host} className="slg-human-check-widget" />;
}

/** A vendor captcha (Aliyun embedded here, Tencent in its own popup); its script loads on demand. */
function VendorCheck({ challenge, onSolved, onCancel, onError }: {
  challenge: Exclude<HumanCheckChallenge, { provider: 'altcha' }>;
  onSolved: (solution: string) => void;
  onCancel: () => void;
  onError: () => void;
}) {
  const containerId = `slg-captcha-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  useEffect(() => {
    let active = true;
    void (async () => {
      try {
        const vendors = await import('./humanCheckVendors');
        if (challenge.provider === 'aliyun') {
          const container = document.getElementById(containerId);
          if (!container) return;
          const solution = await vendors.runAliyunCaptcha(container, challenge.aliyun);
          if (active) onSolved(solution);
        } else {
          const solution = await vendors.runTencentCaptcha(challenge.tencent);
          if (!active) return;
          if (solution) onSolved(solution);
          else onCancel();
        }
      } catch {
        if (active) onError();
      }
    })();
    return () => {
      active = false;
    };
  }, [challenge, containerId, onSolved, onCancel, onError]);
  return <div id={containerId} className="slg-human-check-widget" />;
}

/**
 * The human check the server asks for before it sends more SMS codes. It loads the check only when
 * opened (the ALTCHA widget or a vendor script, never with the page) and reports the solution; the
 * caller retries the send with it.
 */
export function HumanCheckDialog({ open, failed, onSolved, onCancel }: HumanCheckDialogProps) {
  const T = COMPONENT_TEXTS.humanCheck;
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const [altchaLanguage, setAltchaLanguage] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!open) return undefined;
    let active = true;
    setStage({ kind: 'loading' });
    void (async () => {
      try {
        const challenge = await fetchHumanCheckChallenge();
        if (challenge.provider === 'altcha') {
          const widget = await import('./altchaWidget');
          if (active) setAltchaLanguage(widget.ALTCHA_LANGUAGE);
        }
        if (active) setStage({ kind: 'ready', challenge });
      } catch {
        if (active) setStage({ kind: 'error' });
      }
    })();
    return () => {
      active = false;
    };
  }, [open, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  const showError = useCallback(() => setStage({ kind: 'error' }), []);

  return (
    <Dialog open={open} title={T.title} onClose={onCancel} width={380}>
      <p className="slg-muted">{T.intro}</p>
      {failed ? <Alert type="warning" title={T.failed} className="slg-human-check-failed" /> : null}
      {stage.kind === 'loading' ? (
        <div className="slg-human-check-widget slg-human-check-loading" role="status">
          <Spinner />
          <span>{T.loading}</span>
        </div>
      ) : null}
      {stage.kind === 'error' ? (
        <Alert
          type="error"
          title={T.loadFailed}
          action={
            <Button size="small" onClick={reload}>
              {T.retry}
            </Button>
          }
        />
      ) : null}
      {stage.kind === 'ready' && stage.challenge.provider === 'altcha' ? (
        <AltchaWidget challenge={stage.challenge.altcha} language={altchaLanguage ?? 'zh-cn'} onSolved={onSolved} onExpired={reload} />
      ) : null}
      {stage.kind === 'ready' && stage.challenge.provider !== 'altcha' ? (
        <VendorCheck challenge={stage.challenge} onSolved={onSolved} onCancel={onCancel} onError={showError} />
      ) : null}
    </Dialog>
  );
}
