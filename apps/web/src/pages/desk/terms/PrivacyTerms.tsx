import LegalDocument from './components/LegalDocument';
import { PRIVACY_TERMS } from './texts';

export interface PrivacyTermsProps {
  /** When true, render only the text body (e.g. inside the sign-up page's Modal). */
  embedded?: boolean;
}

/** 隐私政策 (`/terms/privacy-terms`). */
export default function PrivacyTerms({ embedded = false }: PrivacyTermsProps) {
  return <LegalDocument document={PRIVACY_TERMS} embedded={embedded} />;
}
