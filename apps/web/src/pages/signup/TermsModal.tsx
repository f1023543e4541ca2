import { lazy, Suspense } from 'react';
import { PageLoading } from '../../components/PageLoading';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SIGNUP_TEXTS } from './texts';

const ServiceTerms = lazy(() => import('../desk/terms/ServiceTerms'));
const PrivacyTerms = lazy(() => import('../desk/terms/PrivacyTerms'));

export type TermsKind = 'service' | 'privacy';

interface TermsModalProps {
  kind: TermsKind | null;
  onClose: () => void;
  onAgree: () => void;
}

/** The service / privacy dialog of the sign-up page; its text is the terms page's content. */
export function TermsModal({ kind, onClose, onAgree }: TermsModalProps) {
  const T = SIGNUP_TEXTS.terms;
  return (
    <Dialog
      open={kind !== null}
      title={kind === 'privacy' ? T.privacy : T.service}
      onClose={onClose}
      width={760}
      scrollBody
      footer={
        <Button variant="primary" onClick={onAgree}>
          {T.agree}
        </Button>
      }
    >
      <Suspense fallback={<PageLoading />}>
        {kind === 'privacy' ? <PrivacyTerms embedded /> : kind === 'service' ? <ServiceTerms embedded /> : null}
      </Suspense>
    </Dialog>
  );
}
