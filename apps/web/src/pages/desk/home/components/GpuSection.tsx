import { formatYuan } from '@slg/shared';
import { Link } from 'react-router';
import { useGpus } from '../../../../api/meta';
import type { GpuModel } from '../../../../api/meta';
import { HOME_TEXTS } from '../texts';
import { gridClass } from './layout';
import QueryContent from './QueryContent';
import Section from './Section';
import Stat from './Stat';
import Tag from './Tag';

const TEXTS = HOME_TEXTS.gpus;

/** Where the GPU section sends readers for the billing methods: the billing band of this page. */
export const BILLING_ANCHOR = '#home-billing';

/** 算力市场 showing the hosts of one GPU model. */
export function marketPathOf(gpuModelId: string): string {
  return `/computility-market?${new URLSearchParams({ gpuModelId }).toString()}`;
}

/** A GPU model with its reference price; the card itself is information, its one control the link to rent it. */
function GpuCard({ gpu }: { gpu: GpuModel }) {
  return (
    <article className="slg-home-card" aria-labelledby={`gpu-${gpu.id}-name`}>
      <div className="slg-home-card-head">
        <h3 id={`gpu-${gpu.id}-name`} className="slg-home-card-title slg-home-card-title--lg">
          {gpu.name}
        </h3>
        <Tag tone="success">{gpu.vendor}</Tag>
      </div>
      <p className="slg-home-muted">{TEXTS.architecture(gpu.architecture)}</p>
      <dl className="slg-home-stats">
        <Stat title={TEXTS.memory} value={gpu.memoryGb} unit={TEXTS.memoryUnit} />
        <Stat title={TEXTS.fp32} value={gpu.fp32Tflops} unit={TEXTS.fp32Unit} />
      </dl>
      <div className="slg-home-gpu-price">
        <div className="slg-home-stat-title">{TEXTS.referencePrice}</div>
        <span className="slg-home-gpu-price-value">{formatYuan(gpu.pricePerHourFen)}</span>
        <span className="slg-home-stat-unit">{TEXTS.pricePerCardHour}</span>
      </div>
      <Link className="slg-home-card-link" to={marketPathOf(gpu.id)} aria-label={TEXTS.rentLabel(gpu.name)}>
        {TEXTS.rent}
      </Link>
    </article>
  );
}

export default function GpuSection() {
  const gpus = useGpus();

  return (
    <Section id="home-gpus" title={TEXTS.title} subtitle={TEXTS.subtitle} alt>
      <QueryContent query={gpus} errorTitle={TEXTS.error} emptyText={TEXTS.empty}>
        {(items) => (
          <>
            <div className={gridClass()}>
              {items.map((gpu) => (
                <GpuCard key={gpu.id} gpu={gpu} />
              ))}
            </div>
            <p className="slg-home-note">
              {TEXTS.priceNote} <a href={BILLING_ANCHOR}>{TEXTS.billingLink}</a>
            </p>
          </>
        )}
      </QueryContent>
    </Section>
  );
}
