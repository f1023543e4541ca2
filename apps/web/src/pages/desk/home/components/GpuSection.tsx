import { Card, Col, Divider, Flex, Row, Statistic, Tag, Typography, theme } from 'antd';
import { formatYuan } from '@slg/shared';
import { useGpus } from '../../../../api/meta';
import type { GpuModel } from '../../../../api/meta';
import { HOME_TEXTS } from '../texts';
import { CARD_COLS_4, CARD_GUTTER } from './layout';
import QueryContent from './QueryContent';
import Section from './Section';

const TEXTS = HOME_TEXTS.gpus;

function GpuCard({ gpu }: { gpu: GpuModel }) {
  const { token } = theme.useToken();
  const statisticStyles = {
    content: { fontSize: 22, whiteSpace: 'nowrap' },
    suffix: { fontSize: token.fontSize, color: token.colorTextSecondary },
  } as const;

  return (
    <Card hoverable style={{ height: '100%' }} aria-label={gpu.name}>
      <Flex justify="space-between" align="flex-start" gap={8}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {gpu.name}
        </Typography.Title>
        <Tag color="green" style={{ marginInlineEnd: 0 }}>
          {gpu.vendor}
        </Tag>
      </Flex>
      <Typography.Text type="secondary">{TEXTS.architecture(gpu.architecture)}</Typography.Text>
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col span={12}>
          <Statistic title={TEXTS.memory} value={gpu.memoryGb} suffix={TEXTS.memoryUnit} styles={statisticStyles} />
        </Col>
        <Col span={12}>
          <Statistic title={TEXTS.fp32} value={gpu.fp32Tflops} suffix={TEXTS.fp32Unit} styles={statisticStyles} />
        </Col>
      </Row>
      <Divider style={{ marginBlock: 16 }} />
      <Typography.Text type="secondary">{TEXTS.referencePrice}</Typography.Text>
      <div>
        <Typography.Text strong style={{ fontSize: 26, color: token.colorPrimary }}>
          {formatYuan(gpu.pricePerHourFen)}
        </Typography.Text>
        <Typography.Text type="secondary">{TEXTS.pricePerCardHour}</Typography.Text>
      </div>
    </Card>
  );
}

export default function GpuSection() {
  const gpus = useGpus();

  return (
    <Section id="home-gpus" title={TEXTS.title} subtitle={TEXTS.subtitle} alt>
      <QueryContent query={gpus} errorTitle={TEXTS.error} emptyText={TEXTS.empty} skeletonCols={CARD_COLS_4}>
        {(items) => (
          <>
            <Row gutter={CARD_GUTTER} justify="center">
              {items.map((gpu) => (
                <Col key={gpu.id} {...CARD_COLS_4}>
                  <GpuCard gpu={gpu} />
                </Col>
              ))}
            </Row>
            <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginTop: 24, marginBottom: 0 }}>
              {TEXTS.priceNote}
            </Typography.Paragraph>
          </>
        )}
      </QueryContent>
    </Section>
  );
}
