import type { ReactNode } from 'react';
import { Grid, Typography, theme } from 'antd';
import { contentColumnStyle } from './layout';

export interface SectionProps {
  id: string;
  title: string;
  subtitle?: string;
  /** Paint the band with the container background to alternate with the layout background. */
  alt?: boolean;
  children: ReactNode;
}

/** A full-width band of the landing page with a centred heading and content column. */
export default function Section({ id, title, subtitle, alt = false, children }: SectionProps) {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.md);

  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      style={{
        background: alt ? token.colorBgContainer : 'transparent',
        paddingBlock: wide ? 72 : 40,
      }}
    >
      <div style={contentColumnStyle(wide)}>
        <div style={{ textAlign: 'center', marginBottom: wide ? 40 : 24 }}>
          <Typography.Title id={`${id}-title`} level={2} style={{ marginTop: 0, marginBottom: 8 }}>
            {title}
          </Typography.Title>
          {subtitle ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0, fontSize: token.fontSizeLG }}>
              {subtitle}
            </Typography.Paragraph>
          ) : null}
        </div>
        {children}
      </div>
    </section>
  );
}
