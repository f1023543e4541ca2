import { Card, Col, Flex, Row, Tag, Typography, theme } from 'antd';
import { ContainerOutlined } from '@ant-design/icons';
import { usePublicImages } from '../../../../api/meta';
import type { PublicImage } from '../../../../api/meta';
import { HOME_TEXTS } from '../texts';
import { CARD_COLS_3, CARD_GUTTER } from './layout';
import QueryContent from './QueryContent';
import Section from './Section';

const TEXTS = HOME_TEXTS.images;

function ImageCard({ image }: { image: PublicImage }) {
  const { token } = theme.useToken();
  const versions = [
    { key: 'python', label: TEXTS.python, value: image.python },
    { key: 'cuda', label: TEXTS.cuda, value: image.cuda },
    { key: 'ubuntu', label: TEXTS.ubuntu, value: image.ubuntu },
  ].filter((version) => version.value);

  return (
    <Card style={{ height: '100%' }} aria-label={image.name}>
      <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 12 }} ellipsis={{ tooltip: image.name }}>
        <ContainerOutlined style={{ color: token.colorPrimary, marginInlineEnd: 8 }} />
        {image.name}
      </Typography.Title>
      <Flex wrap gap={8}>
        <Tag color="geekblue" style={{ marginInlineEnd: 0 }}>
          {`${image.framework} ${image.frameworkVersion}`.trim()}
        </Tag>
        {versions.map((version) => (
          <Tag key={version.key} style={{ marginInlineEnd: 0 }}>
            {`${version.label} ${version.value}`}
          </Tag>
        ))}
      </Flex>
    </Card>
  );
}

export default function ImageSection() {
  const images = usePublicImages();

  return (
    <Section id="home-images" title={TEXTS.title} subtitle={TEXTS.subtitle} alt>
      <QueryContent
        query={images}
        errorTitle={TEXTS.error}
        emptyText={TEXTS.empty}
        skeletonCols={CARD_COLS_3}
        skeletonCount={3}
      >
        {(items) => (
          <Row gutter={CARD_GUTTER} justify="center">
            {items.map((image) => (
              <Col key={image.id} {...CARD_COLS_3}>
                <ImageCard image={image} />
              </Col>
            ))}
          </Row>
        )}
      </QueryContent>
    </Section>
  );
}
