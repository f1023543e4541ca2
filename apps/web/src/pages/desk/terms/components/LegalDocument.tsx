import { FileProtectOutlined } from '../../../../ui/icons/FileProtectOutlined';
import type { LegalBlock, LegalDocumentText } from '../texts';
import { TERMS_TEXTS } from '../texts';
import './legal.css';

export interface LegalDocumentProps {
  document: LegalDocumentText;
  /** Render only the text body (for a dialog), without the page title block and card. */
  embedded?: boolean;
}

function Block({ block }: { block: LegalBlock }) {
  if (typeof block === 'string') return <p>{block}</p>;
  return (
    <ul>
      {block.list.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

/** Section headings are h2 under the page's h1 (or the registration page's, behind the dialog). */
function LegalBody({ document, compact }: { document: LegalDocumentText; compact: boolean }) {
  return (
    <div className={compact ? 'slg-legal-body slg-legal-body--compact' : 'slg-legal-body'}>
      {document.preamble.map((block, index) => (
        <Block key={`preamble-${index}`} block={block} />
      ))}
      {document.sections.map((section) => (
        <section key={section.title}>
          <h2>{section.title}</h2>
          {section.blocks.map((block, index) => (
            <Block key={`${section.title}-${index}`} block={block} />
          ))}
        </section>
      ))}
      {document.closing.map((paragraph) => (
        <p key={paragraph}>
          <strong>{paragraph}</strong>
        </p>
      ))}
    </div>
  );
}

/** Renders a legal document either as a full page or as a bare body for a dialog. */
export default function LegalDocument({ document, embedded = false }: LegalDocumentProps) {
  if (embedded) return <LegalBody document={document} compact />;

  return (
    <div className="slg-legal">
      <article className="slg-card slg-legal-card">
        <header className="slg-legal-header">
          <FileProtectOutlined className="slg-legal-icon" />
          <h1 className="slg-legal-title">{document.title}</h1>
          <p className="slg-muted">{document.summary}</p>
          <div className="slg-legal-dates slg-muted">
            <span>{`${TERMS_TEXTS.updatedDateLabel}：${TERMS_TEXTS.updatedDate}`}</span>
            <span>{`${TERMS_TEXTS.effectiveDateLabel}：${TERMS_TEXTS.effectiveDate}`}</span>
          </div>
        </header>
        <hr className="slg-divider slg-legal-divider" />
        <LegalBody document={document} compact={false} />
      </article>
    </div>
  );
}
