import type { ReactNode } from 'react';
import { Card, Col, Flex, Row, Typography, theme } from 'antd';
import {
  AppstoreOutlined,
  CodeOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  FieldTimeOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { HOME_TEXTS } from '../texts';
import { CARD_COLS_3, CARD_GUTTER } from './layout';
import Section from './Section';

const TEXTS = HOME_TEXTS.features;

type FeatureKey = (typeof TEXTS.items)[number]['key'];

const FEATURE_ICONS: Record<FeatureKey, ReactNode> = {
  'per-second': <FieldTimeOutlined />,
  images: <AppstoreOutlined />,
  connect: <CodeOutlined />,
  elastic: <DeploymentUnitOutlined />,
  storage: <DatabaseOutlined />,
  team: <TeamOutlined />,
};

export default function FeatureSection() {
  const { token } = theme.useToken();

  return (
    <Section id="home-features" title={TEXTS.title} subtitle={TEXTS.subtitle}>
      <Row gutter={CARD_GUTTER}>
        {TEXTS.items.map((feature) => (
          <Col key={feature.key} {...CARD_COLS_3}>
            <Card style={{ height: '100%' }}>
              <Flex gap={16} align="flex-start">
                <span
                  aria-hidden
                  style={{
                    flex: 'none',
                    display: 'inline-flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                    width: 44,
                    height: 44,
                    borderRadius: token.borderRadiusLG,
                    background: token.colorPrimaryBg,
                    color: token.colorPrimary,
                    fontSize: 22,
                  }}
                >
                  {FEATURE_ICONS[feature.key]}
                </span>
                <div>
                  <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 6 }}>
                    {feature.title}
                  </Typography.Title>
                  <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                    {feature.description}
                  </Typography.Paragraph>
                </div>
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
    </Section>
  );
}
