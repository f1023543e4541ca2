import { Card, Col, Flex, Row, Tag, Typography, theme } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import { useZones } from '../../../../api/meta';
import type { Zone } from '../../../../api/meta';
import { HOME_TEXTS } from '../texts';
import { CARD_COLS_4, CARD_GUTTER } from './layout';
import QueryContent from './QueryContent';
import Section from './Section';

const TEXTS = HOME_TEXTS.zones;

function ZoneCard({ zone }: { zone: Zone }) {
  const { token } = theme.useToken();

  return (
    <Card style={{ height: '100%' }} aria-label={zone.name}>
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          <EnvironmentOutlined style={{ color: token.colorPrimary, marginInlineEnd: 8 }} />
          {zone.name}
        </Typography.Title>
        <Tag color="blue" style={{ marginInlineEnd: 0 }}>
          {zone.region}
        </Tag>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }} ellipsis={{ rows: 3 }}>
        {zone.description || TEXTS.noDescription}
      </Typography.Paragraph>
    </Card>
  );
}

export default function ZoneSection() {
  const zones = useZones();

  return (
    <Section id="home-zones" title={TEXTS.title} subtitle={TEXTS.subtitle}>
      <QueryContent query={zones} errorTitle={TEXTS.error} emptyText={TEXTS.empty} skeletonCols={CARD_COLS_4}>
        {(items) => (
          <Row gutter={CARD_GUTTER} justify="center">
            {items.map((zone) => (
              <Col key={zone.id} {...CARD_COLS_4}>
                <ZoneCard zone={zone} />
              </Col>
            ))}
          </Row>
        )}
      </QueryContent>
    </Section>
  );
}
