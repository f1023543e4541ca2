import { formatYuan } from '@slg/shared';
import { useGpus, useZones } from '../../../api/meta';
import { filterSummary } from '../rules';
import { ELASTIC_TEXTS } from '../texts';

export interface FilterValues {
  zoneIds: readonly string[];
  gpuModelIds: readonly string[];
  cudaMin?: string | null;
  priceMaxFen?: number | null;
}

/** The filters in words, one per line, with the zones' and GPU models' names. */
export function FilterSummary({ filter }: { filter: FilterValues }) {
  const zones = useZones();
  const gpus = useGpus();
  const lines = filterSummary(
    filter,
    {
      zone: (id) => zones.data?.find((zone) => zone.id === id)?.name ?? id,
      gpu: (id) => gpus.data?.find((gpu) => gpu.id === id)?.name ?? id,
    },
    ELASTIC_TEXTS.filterSummary,
    formatYuan,
  );
  return (
    <span className="slg-elastic-lines">
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
    </span>
  );
}
