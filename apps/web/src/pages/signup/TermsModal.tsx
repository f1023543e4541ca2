import { Button, Modal } from 'antd';
import { lazy, Suspense } from 'react';
import { PageLoading } from '../../components/PageLoading';
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
    <Modal
      open={kind !== null}
      title={kind === 'privacy' ? T.privacy : T.service}
      onCancel={onClose}
      width={760}
      destroyOnHidden
      styles={{ body: { maxHeight: '60vh', overflowY: 'auto', paddingRight: 8 } }}
      footer={
        <Button type="primary" onClick={onAgree}>
          {T.agree}
        </Button>
      }
    >
      <Suspense fallback={<PageLoading />}>
        {kind === 'privacy' ? <PrivacyTerms embedded /> : kind === 'service' ? <ServiceTerms embedded /> : null}
      </Suspense>
    </Modal>
  );
}
