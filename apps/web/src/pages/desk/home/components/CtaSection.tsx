import { Flex, Grid, Typography, theme } from 'antd';
import LinkButton from '../../components/LinkButton';
import { DESK_LINKS } from '../../links';
import { HOME_TEXTS } from '../texts';
import { contentColumnStyle } from './layout';

const TEXTS = HOME_TEXTS.cta;

export default function CtaSection() {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.md);

  return (
    <section aria-labelledby="home-cta-title" style={{ background: token.colorBgContainer, paddingBlock: wide ? 64 : 40 }}>
      <div style={contentColumnStyle(wide)}>
        <Flex
          vertical
          align="center"
          gap={16}
          style={{
            textAlign: 'center',
            padding: wide ? 48 : 24,
            borderRadius: token.borderRadiusLG * 2,
            border: `1px solid ${token.colorPrimaryBorder}`,
            background: token.colorPrimaryBg,
          }}
        >
          <Typography.Title id="home-cta-title" level={2} style={{ margin: 0 }}>
            {TEXTS.title}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: token.fontSizeLG }}>
            {TEXTS.subtitle}
          </Typography.Paragraph>
          <Flex wrap gap={12} justify="center">
            <LinkButton to={DESK_LINKS.register} type="primary" size="large">
              {TEXTS.register}
            </LinkButton>
            <LinkButton to={DESK_LINKS.console} size="large">
              {TEXTS.console}
            </LinkButton>
          </Flex>
        </Flex>
      </div>
    </section>
  );
}
