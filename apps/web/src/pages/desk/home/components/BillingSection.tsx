import { Alert, Card, Col, Flex, Row, Tag, Typography, theme } from 'antd';
import { CalendarOutlined, CheckOutlined, FieldTimeOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { TIME_PACKAGE_COUNTS } from '@slg/shared';
import { HOME_TEXTS } from '../texts';
import { formatCountRanges } from '../../formatCountRanges';
import { CARD_GUTTER } from './layout';
import Section from './Section';

const TEXTS = HOME_TEXTS.billing;

interface BillingCardProps {
  icon: ReactNode;
  title: string;
  tag: string;
  tagColor: string;
  summary: string;
  points: readonly string[];
}

function BillingCard({ icon, title, tag, tagColor, summary, points }: BillingCardProps) {
  const { token } = theme.useToken();

  return (
    <Card style={{ height: '100%' }} aria-label={title}>
      <Flex align="center" gap={12} wrap>
        <span aria-hidden style={{ fontSize: 28, color: token.colorPrimary, display: 'inline-flex' }}>
          {icon}
        </span>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Tag color={tagColor}>{tag}</Tag>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: token.fontSizeLG }}>
        {summary}
      </Typography.Paragraph>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {points.map((point) => (
          <li key={point} style={{ paddingBlock: 6 }}>
            <Flex gap={10} align="flex-start">
              <CheckOutlined style={{ color: token.colorSuccess, marginTop: 5 }} />
              <Typography.Text>{point}</Typography.Text>
            </Flex>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export default function BillingSection() {
  const packages = TEXTS.prepaid.packages(
    formatCountRanges(TIME_PACKAGE_COUNTS.day),
    formatCountRanges(TIME_PACKAGE_COUNTS.week),
    formatCountRanges(TIME_PACKAGE_COUNTS.month),
  );

  return (
    <Section id="home-billing" title={TEXTS.title} subtitle={TEXTS.subtitle}>
      <Row gutter={CARD_GUTTER}>
        <Col xs={24} lg={12}>
          <BillingCard
            icon={<FieldTimeOutlined />}
            title={TEXTS.usage.title}
            tag={TEXTS.usage.tag}
            tagColor="green"
            summary={TEXTS.usage.summary}
            points={TEXTS.usage.points}
          />
        </Col>
        <Col xs={24} lg={12}>
          <BillingCard
            icon={<CalendarOutlined />}
            title={TEXTS.prepaid.title}
            tag={TEXTS.prepaid.tag}
            tagColor="gold"
            summary={TEXTS.prepaid.summary}
            points={[packages, ...TEXTS.prepaid.points]}
          />
        </Col>
      </Row>
      <Alert type="info" showIcon title={TEXTS.note} style={{ marginTop: 24 }} />
    </Section>
  );
}
