import LegalDocument from './components/LegalDocument';
import { SERVICE_TERMS } from './texts';

export interface ServiceTermsProps {
  /** When true, render only the text body (e.g. inside the sign-up page's Modal). */
  embedded?: boolean;
}

/** 用户服务协议 (`/terms/service-terms`). */
export default function ServiceTerms({ embedded = false }: ServiceTermsProps) {
  return <LegalDocument document={SERVICE_TERMS} embedded={embedded} />;
}
