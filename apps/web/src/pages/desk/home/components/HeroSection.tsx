import type { CSSProperties, ReactNode } from 'react';
import { Col, Flex, Grid, Row, Statistic, Tag, Typography, theme } from 'antd';
import { ArrowRightOutlined, CheckCircleFilled, RocketOutlined } from '@ant-design/icons';
import { formatYuan } from '@slg/shared';
import { useGpus, usePublicImages, useZones } from '../../../../api/meta';
import LinkButton from '../../components/LinkButton';
import { DESK_LINKS } from '../../links';
import { HOME_TEXTS } from '../texts';
import { contentColumnStyle } from './layout';

const TEXTS = HOME_TEXTS.hero;

/** The hero sits on the same dark gradient in light and dark mode, so its text is always light. */
const HERO_GRADIENT =
  'radial-gradient(circle at 85% 15%, rgba(54, 207, 201, 0.35) 0, transparent 45%), linear-gradient(135deg, #0b1a3d 0%, #13286b 45%, #1d39c4 100%)';
const HERO_TEXT = '#ffffff';
const HERO_TEXT_SECONDARY = 'rgba(255, 255, 255, 0.78)';
const HERO_PANEL_BG = 'rgba(255, 255, 255, 0.08)';
const HERO_PANEL_BORDER = 'rgba(255, 255, 255, 0.18)';
const HERO_ACCENT = '#5cdbd3';

interface HeroStat {
  key: string;
  title: string;
  value: string;
  suffix: string;
  loading: boolean;
}

/** A count statistic: the list length once loaded, a dash (without unit) when the list failed. */
function countStat(
  key: string,
  title: string,
  unit: string,
  query: { data?: readonly unknown[]; isPending: boolean },
): HeroStat {
  return {
    key,
    title,
    value: query.data ? String(query.data.length) : TEXTS.stats.unavailable,
    suffix: query.data ? unit : '',
    loading: query.isPending,
  };
}

function HeroStatistic({ stat, style }: { stat: HeroStat; style?: CSSProperties }) {
  return (
    <Statistic
      title={stat.title}
      value={stat.value}
      suffix={stat.suffix}
      loading={stat.loading}
      style={style}
      styles={{
        title: { color: HERO_TEXT_SECONDARY },
        content: { color: HERO_TEXT, fontSize: 28 },
        suffix: { color: HERO_TEXT_SECONDARY, fontSize: 14 },
      }}
    />
  );
}

export default function HeroSection() {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.md);
  const gpus = useGpus();
  const zones = useZones();
  const images = usePublicImages();

  const lowestPriceFen = gpus.data?.length
    ? Math.min(...gpus.data.map((gpu) => gpu.pricePerHourFen))
    : undefined;

  const stats: HeroStat[] = [
    countStat('gpus', TEXTS.stats.gpuModels, TEXTS.stats.gpuModelsUnit, gpus),
    countStat('zones', TEXTS.stats.zones, TEXTS.stats.zonesUnit, zones),
    countStat('images', TEXTS.stats.images, TEXTS.stats.imagesUnit, images),
    {
      key: 'granularity',
      title: TEXTS.stats.billingGranularity,
      value: TEXTS.stats.billingGranularityValue,
      suffix: TEXTS.stats.billingGranularityUnit,
      loading: false,
    },
  ];

  const lowestPrice: ReactNode =
    lowestPriceFen === undefined ? null : (
      <div style={{ borderTop: `1px solid ${HERO_PANEL_BORDER}`, paddingTop: 16, marginTop: 8 }}>
        <HeroStatistic
          stat={{
            key: 'price',
            title: TEXTS.stats.lowestPrice,
            value: formatYuan(lowestPriceFen),
            suffix: TEXTS.stats.lowestPriceUnit,
            loading: false,
          }}
        />
      </div>
    );

  return (
    <section
      aria-labelledby="home-hero-title"
      style={{ background: HERO_GRADIENT, color: HERO_TEXT, paddingBlock: wide ? 96 : 48 }}
    >
      <div style={contentColumnStyle(wide)}>
        <Row gutter={[wide ? 48 : 16, wide ? 40 : 24]} align="middle">
          <Col xs={24} lg={14}>
            <Flex vertical gap={wide ? 24 : 16}>
              <Typography.Text style={{ color: HERO_ACCENT, fontSize: token.fontSizeLG, fontWeight: 500 }}>
                <RocketOutlined /> {TEXTS.eyebrow}
              </Typography.Text>
              <Typography.Title
                id="home-hero-title"
                level={1}
                style={{ color: HERO_TEXT, margin: 0, fontSize: wide ? 52 : 30, lineHeight: 1.25 }}
              >
                {TEXTS.title}
              </Typography.Title>
              <Typography.Paragraph
                style={{ color: HERO_TEXT_SECONDARY, fontSize: wide ? 18 : 16, margin: 0, maxWidth: 620 }}
              >
                {TEXTS.subtitle}
              </Typography.Paragraph>
              <Flex wrap gap={8}>
                {TEXTS.highlights.map((highlight) => (
                  <Tag
                    key={highlight}
                    icon={<CheckCircleFilled />}
                    variant="outlined"
                    style={{
                      color: HERO_TEXT,
                      background: HERO_PANEL_BG,
                      borderColor: HERO_PANEL_BORDER,
                      paddingBlock: 2,
                      marginInlineEnd: 0,
                    }}
                  >
                    {highlight}
                  </Tag>
                ))}
              </Flex>
              <Flex wrap gap={12} style={{ marginTop: 8 }}>
                <LinkButton to={DESK_LINKS.register} type="primary" size="large" icon={<ArrowRightOutlined />} iconPlacement="end">
                  {TEXTS.register}
                </LinkButton>
                <LinkButton
                  to={DESK_LINKS.console}
                  size="large"
                  ghost
                  style={{ color: HERO_TEXT, borderColor: HERO_TEXT }}
                >
                  {TEXTS.console}
                </LinkButton>
              </Flex>
            </Flex>
          </Col>
          <Col xs={24} lg={10}>
            <div
              role="group"
              aria-label={TEXTS.statsTitle}
              style={{
                background: HERO_PANEL_BG,
                border: `1px solid ${HERO_PANEL_BORDER}`,
                borderRadius: token.borderRadiusLG * 2,
                padding: wide ? 32 : 20,
                backdropFilter: 'blur(6px)',
              }}
            >
              <Typography.Text strong style={{ color: HERO_TEXT, fontSize: token.fontSizeLG }}>
                {TEXTS.statsTitle}
              </Typography.Text>
              <Row gutter={[24, 24]} style={{ marginTop: 16 }}>
                {stats.map((stat) => (
                  <Col key={stat.key} span={12}>
                    <HeroStatistic stat={stat} />
                  </Col>
                ))}
              </Row>
              {lowestPrice}
            </div>
          </Col>
        </Row>
      </div>
    </section>
  );
}
