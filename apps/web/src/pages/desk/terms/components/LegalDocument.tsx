import { Card, Divider, Flex, Grid, Typography, theme } from 'antd';
import { FileProtectOutlined } from '@ant-design/icons';
import type { LegalBlock, LegalDocumentText } from '../texts';
import { TERMS_TEXTS } from '../texts';

export interface LegalDocumentProps {
  document: LegalDocumentText;
  /** Render only the text body (for a Modal), without the page title block and card. */
  embedded?: boolean;
}

function Block({ block }: { block: LegalBlock }) {
  if (typeof block === 'string') {
    return <Typography.Paragraph>{block}</Typography.Paragraph>;
  }
  return (
    <Typography.Paragraph>
      <ul>
        {block.list.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </Typography.Paragraph>
  );
}

function LegalBody({ document, compact }: { document: LegalDocumentText; compact: boolean }) {
  const { token } = theme.useToken();
  // Section headings are h2 under the page's h1 (or the registration page's, behind the dialog), drawn at
  // the sizes of h4 / h5.
  const headingLevel = 2;
  const headingSize = compact ? token.fontSizeHeading5 : token.fontSizeHeading4;

  return (
    <Typography>
      {document.preamble.map((block, index) => (
        <Block key={`preamble-${index}`} block={block} />
      ))}
      {document.sections.map((section) => (
        <section key={section.title}>
          <Typography.Title level={headingLevel} style={{ fontSize: headingSize }}>
            {section.title}
          </Typography.Title>
          {section.blocks.map((block, index) => (
            <Block key={`${section.title}-${index}`} block={block} />
          ))}
        </section>
      ))}
      {document.closing.map((paragraph) => (
        <Typography.Paragraph key={paragraph} strong>
          {paragraph}
        </Typography.Paragraph>
      ))}
    </Typography>
  );
}

/** Renders a legal document either as a full page or as a bare body for a dialog. */
export default function LegalDocument({ document, embedded = false }: LegalDocumentProps) {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.md);

  if (embedded) {
    return <LegalBody document={document} compact />;
  }

  return (
    <div style={{ maxWidth: 960, margin: '0 auto', paddingInline: wide ? 24 : 12, paddingBlock: wide ? 48 : 24 }}>
      <Card styles={{ body: { padding: wide ? 48 : 20 } }}>
        <header style={{ textAlign: 'center' }}>
          <FileProtectOutlined aria-hidden style={{ fontSize: 40, color: token.colorPrimary }} />
          <Typography.Title level={1} style={{ fontSize: wide ? 32 : 26, marginTop: 12 }}>
            {document.title}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{document.summary}</Typography.Paragraph>
          <Flex justify="center" gap={wide ? 24 : 12} wrap>
            <Typography.Text type="secondary">
              {`${TERMS_TEXTS.updatedDateLabel}：${TERMS_TEXTS.updatedDate}`}
            </Typography.Text>
            <Typography.Text type="secondary">
              {`${TERMS_TEXTS.effectiveDateLabel}：${TERMS_TEXTS.effectiveDate}`}
            </Typography.Text>
          </Flex>
        </header>
        <Divider />
        <LegalBody document={document} compact={false} />
      </Card>
    </div>
  );
}
