import { EnvironmentOutlined } from '../../../../ui/icons/EnvironmentOutlined';
import { useZones } from '../../../../api/meta';
import type { Zone } from '../../../../api/meta';
import { HOME_TEXTS } from '../texts';
import { gridClass } from './layout';
import QueryContent from './QueryContent';
import Section from './Section';
import Tag from './Tag';

const TEXTS = HOME_TEXTS.zones;

function ZoneCard({ zone }: { zone: Zone }) {
  return (
    <article className="slg-home-card" aria-labelledby={`zone-${zone.id}-name`}>
      <div className="slg-home-card-head">
        <h3 id={`zone-${zone.id}-name`} className="slg-home-card-title">
          <EnvironmentOutlined aria-hidden />
          {zone.name}
        </h3>
        <Tag tone="info">{zone.region}</Tag>
      </div>
      <p className="slg-home-muted" style={{ marginTop: 12 }}>
        {zone.description || TEXTS.noDescription}
      </p>
    </article>
  );
}

export default function ZoneSection() {
  const zones = useZones();

  return (
    <Section id="home-zones" title={TEXTS.title} subtitle={TEXTS.subtitle}>
      <QueryContent query={zones} errorTitle={TEXTS.error} emptyText={TEXTS.empty}>
        {(items) => (
          <div className={gridClass()}>
            {items.map((zone) => (
              <ZoneCard key={zone.id} zone={zone} />
            ))}
          </div>
        )}
      </QueryContent>
    </Section>
  );
}
