import type { ReactNode } from 'react';
import { Card, Col, Descriptions, Flex, Grid, Row, Typography, theme } from 'antd';
import {
  ApiOutlined,
  CloudServerOutlined,
  CodeOutlined,
  DatabaseOutlined,
  EyeOutlined,
  LineChartOutlined,
  MailOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { ABOUT_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

type ValueKey = (typeof ABOUT_TEXTS.values.items)[number]['key'];
type OfferingKey = (typeof ABOUT_TEXTS.offerings.items)[number]['key'];

const VALUE_ICONS: Record<ValueKey, ReactNode> = {
  open: <ApiOutlined />,
  transparent: <EyeOutlined />,
  secure: <SafetyCertificateOutlined />,
  reliable: <ThunderboltOutlined />,
};

const OFFERING_ICONS: Record<OfferingKey, ReactNode> = {
  instances: <CloudServerOutlined />,
  access: <CodeOutlined />,
  images: <DatabaseOutlined />,
  monitoring: <LineChartOutlined />,
  cost: <WalletOutlined />,
  team: <TeamOutlined />,
};

const MAX_WIDTH = 1080;

/** 关于我们 (`/about`); rendered inside DeskLayout (which owns header and footer). */
function AboutPage() {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.md);
  const iconStyle = { fontSize: 24, color: token.colorPrimary } as const;

  return (
    <div style={{ maxWidth: MAX_WIDTH, margin: '0 auto', paddingInline: wide ? 24 : 16, paddingBlock: wide ? 56 : 32 }}>
      <Flex vertical gap={wide ? 40 : 24}>
        <header style={{ textAlign: 'center' }}>
          <Typography.Title level={1} style={{ marginTop: 0, fontSize: wide ? 40 : 30 }}>
            {ABOUT_TEXTS.title}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ fontSize: token.fontSizeLG, marginBottom: 0 }}>
            {ABOUT_TEXTS.subtitle}
          </Typography.Paragraph>
        </header>

        <Card title={ABOUT_TEXTS.whoWeAre.title}>
          {ABOUT_TEXTS.whoWeAre.paragraphs.map((paragraph) => (
            <Typography.Paragraph key={paragraph} style={{ fontSize: token.fontSizeLG }}>
              {paragraph}
            </Typography.Paragraph>
          ))}
        </Card>

        <section aria-labelledby="about-values">
          <Typography.Title id="about-values" level={2} style={{ fontSize: token.fontSizeHeading3 }}>
            {ABOUT_TEXTS.values.title}
          </Typography.Title>
          <Row gutter={[16, 16]}>
            {ABOUT_TEXTS.values.items.map((item) => (
              <Col key={item.key} xs={24} sm={12} lg={6}>
                <Card style={{ height: '100%' }}>
                  <span aria-hidden style={iconStyle}>
                    {VALUE_ICONS[item.key]}
                  </span>
                  <Typography.Title level={3} style={{ marginTop: 12, fontSize: token.fontSizeHeading5 }}>
                    {item.title}
                  </Typography.Title>
                  <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                    {item.description}
                  </Typography.Paragraph>
                </Card>
              </Col>
            ))}
          </Row>
        </section>

        <section aria-labelledby="about-offerings">
          <Typography.Title id="about-offerings" level={2} style={{ fontSize: token.fontSizeHeading3 }}>
            {ABOUT_TEXTS.offerings.title}
          </Typography.Title>
          <Row gutter={[16, 16]}>
            {ABOUT_TEXTS.offerings.items.map((item) => (
              <Col key={item.key} xs={24} sm={12} lg={8}>
                <Card style={{ height: '100%' }}>
                  <Flex gap={12} align="flex-start">
                    <span aria-hidden style={iconStyle}>
                      {OFFERING_ICONS[item.key]}
                    </span>
                    <div>
                      <Typography.Title level={3} style={{ marginTop: 0, fontSize: token.fontSizeHeading5 }}>
                        {item.title}
                      </Typography.Title>
                      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                        {item.description}
                      </Typography.Paragraph>
                    </div>
                  </Flex>
                </Card>
              </Col>
            ))}
          </Row>
        </section>

        <Card
          title={
            <span>
              <MailOutlined style={{ color: token.colorPrimary, marginInlineEnd: 8 }} />
              {ABOUT_TEXTS.contact.title}
            </span>
          }
        >
          <Typography.Paragraph type="secondary">{ABOUT_TEXTS.contact.description}</Typography.Paragraph>
          <Descriptions
            column={1}
            bordered
            size={wide ? 'medium' : 'small'}
            layout={wide ? 'horizontal' : 'vertical'}
            items={[
              {
                key: 'email',
                label: ABOUT_TEXTS.contact.emailLabel,
                children: (
                  <Typography.Link href={`mailto:${ABOUT_TEXTS.contact.email}`} copyable className="slg-about-email">
                    {ABOUT_TEXTS.contact.email}
                  </Typography.Link>
                ),
              },
              { key: 'hours', label: ABOUT_TEXTS.contact.hoursLabel, children: ABOUT_TEXTS.contact.hours },
              { key: 'response', label: ABOUT_TEXTS.contact.responseLabel, children: ABOUT_TEXTS.contact.response },
              { key: 'tips', label: ABOUT_TEXTS.contact.tipsLabel, children: ABOUT_TEXTS.contact.tips },
            ]}
          />
        </Card>
      </Flex>
    </div>
  );
}

export default withAntd(AboutPage);
