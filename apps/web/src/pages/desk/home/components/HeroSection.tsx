import { ArrowRightOutlined } from '../../../../ui/icons/ArrowRightOutlined';
import { CheckCircleFilled } from '../../../../ui/icons/CheckCircleFilled';
import { RocketOutlined } from '../../../../ui/icons/RocketOutlined';
import { formatYuan } from '@slg/shared';
import { useGpus, usePublicImages, useZones } from '../../../../api/meta';
import { ButtonLink } from '../../../../ui/Button';
import { DESK_LINKS } from '../../links';
import { HOME_TEXTS } from '../texts';
import Stat from './Stat';
import Tag from './Tag';

const TEXTS = HOME_TEXTS.hero;

/** A count statistic: the list length once loaded, a dash (without unit) when the list failed. */
function CountStat({ title, unit, query }: { title: string; unit: string; query: { data?: readonly unknown[]; isPending: boolean } }) {
  return (
    <Stat
      title={title}
      value={query.data ? String(query.data.length) : TEXTS.stats.unavailable}
      unit={query.data ? unit : undefined}
      loading={query.isPending}
    />
  );
}

export default function HeroSection() {
  const gpus = useGpus();
  const zones = useZones();
  const images = usePublicImages();

  const lowestPriceFen = gpus.data?.length ? Math.min(...gpus.data.map((gpu) => gpu.pricePerHourFen)) : undefined;

  return (
    <section aria-labelledby="home-hero-title" className="slg-home-hero">
      <div className="slg-home-column slg-home-hero-grid">
        <div className="slg-home-hero-main">
          <p className="slg-home-hero-eyebrow">
            <RocketOutlined /> {TEXTS.eyebrow}
          </p>
          <h1 id="home-hero-title" className="slg-home-hero-title">
            {TEXTS.title}
          </h1>
          <p className="slg-home-hero-subtitle">{TEXTS.subtitle}</p>
          <ul className="slg-home-tags">
            {TEXTS.highlights.map((highlight) => (
              <li key={highlight}>
                <Tag icon={<CheckCircleFilled />}>{highlight}</Tag>
              </li>
            ))}
          </ul>
          <div className="slg-home-hero-actions">
            <ButtonLink to={DESK_LINKS.register} variant="primary" size="large" icon={<ArrowRightOutlined />} iconEnd>
              {TEXTS.register}
            </ButtonLink>
            <ButtonLink to={DESK_LINKS.console} size="large" className="slg-home-hero-ghost">
              {TEXTS.console}
            </ButtonLink>
          </div>
        </div>
        <div role="group" aria-labelledby="home-hero-stats-title" className="slg-home-hero-panel">
          <h2 id="home-hero-stats-title" className="slg-home-hero-panel-title">
            {TEXTS.statsTitle}
          </h2>
          <dl className="slg-home-stats">
            <CountStat title={TEXTS.stats.gpuModels} unit={TEXTS.stats.gpuModelsUnit} query={gpus} />
            <CountStat title={TEXTS.stats.zones} unit={TEXTS.stats.zonesUnit} query={zones} />
            <CountStat title={TEXTS.stats.images} unit={TEXTS.stats.imagesUnit} query={images} />
            <Stat title={TEXTS.stats.billingGranularity} value={TEXTS.stats.billingGranularityValue} unit={TEXTS.stats.billingGranularityUnit} />
          </dl>
          {/* Always laid out (a placeholder while the list loads), so the page below does not move. */}
          <dl className="slg-home-stats slg-home-hero-lowest">
            <Stat
              title={TEXTS.stats.lowestPrice}
              value={lowestPriceFen === undefined ? TEXTS.stats.unavailable : formatYuan(lowestPriceFen)}
              unit={lowestPriceFen === undefined ? undefined : TEXTS.stats.lowestPriceUnit}
              loading={gpus.isPending}
            />
          </dl>
        </div>
      </div>
    </section>
  );
}
