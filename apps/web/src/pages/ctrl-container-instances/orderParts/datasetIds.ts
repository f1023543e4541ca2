/**
 * The shared datasets an order mounts (`datasetIds` of POST /rental and the clones), as the choose
 * pages carry them in the URL to the order pages: `datasetIds=3,5`.
 */
import { DATASETS_PER_INSTANCE_MAX } from '@slg/shared';

const ID_PATTERN = /^[1-9]\d{0,9}$/;

/** Strict: the ids of `datasetIds=3,5` (none when absent); undefined when the parameter is malformed. */
export function parseDatasetIds(value: string | null): number[] | undefined {
  if (value === null) return [];
  const parts = value.split(',');
  if (parts.length > DATASETS_PER_INSTANCE_MAX || parts.some((part) => !ID_PATTERN.test(part))) return undefined;
  const ids = parts.map(Number);
  return new Set(ids).size === ids.length ? ids : undefined;
}

/** Lenient (the choose pages): a malformed parameter chooses none. */
export function datasetIdsDraft(value: string | null): number[] {
  return parseDatasetIds(value) ?? [];
}

export function writeDatasetIds(query: URLSearchParams, ids: readonly number[] | undefined): void {
  if (ids && ids.length > 0) query.set('datasetIds', ids.join(','));
}

/** The part of a body: `datasetIds` only when some are chosen. */
export function datasetIdsBody(ids: readonly number[] | undefined): { datasetIds?: number[] } {
  return ids && ids.length > 0 ? { datasetIds: [...ids] } : {};
}
