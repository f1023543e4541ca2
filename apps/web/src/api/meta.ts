/**
 * Metadata lists (spec §7 "Metadata lists"): zones, GPU models, public images and charging rules.
 * Public calls (no login needed), each answering a plain list in `result`.
 */
import type { ChargingRule, GpuModel, PublicImage, Zone } from '@slg/shared/views/meta';
import { useQuery } from '@tanstack/react-query';
import { request } from './client';

// The lists' types are inferred from the server's schemas (packages/shared/src/views/meta).
export type { ChargingRule, GpuModel, PublicImage, Zone } from '@slg/shared/views/meta';

/** Query keys; all start with `META_QUERY_KEY` so `invalidateQueries({ queryKey: META_QUERY_KEY })` refreshes them all. */
export const META_QUERY_KEY = ['meta'] as const;
export const ZONES_QUERY_KEY = ['meta', 'zone'] as const;
export const GPUS_QUERY_KEY = ['meta', 'gpu'] as const;
export const PUBLIC_IMAGES_QUERY_KEY = ['meta', 'images', 'public'] as const;
export const CHARGING_RULES_QUERY_KEY = ['meta', 'charging_rule'] as const;

export const META_QUERY_KEYS = {
  all: META_QUERY_KEY,
  zones: ZONES_QUERY_KEY,
  gpus: GPUS_QUERY_KEY,
  publicImages: PUBLIC_IMAGES_QUERY_KEY,
  chargingRules: CHARGING_RULES_QUERY_KEY,
} as const;

/** Metadata changes rarely (the operator edits it); keep it fresh for five minutes. */
export const META_STALE_TIME_MS = 5 * 60 * 1000;

export function fetchZones(): Promise<Zone[]> {
  return request<Zone[]>({ method: 'GET', url: '/meta/zone' });
}

export function fetchGpus(): Promise<GpuModel[]> {
  return request<GpuModel[]>({ method: 'GET', url: '/meta/gpu' });
}

export function fetchPublicImages(): Promise<PublicImage[]> {
  return request<PublicImage[]>({ method: 'GET', url: '/meta/images/public' });
}

export function fetchChargingRules(): Promise<ChargingRule[]> {
  return request<ChargingRule[]>({ method: 'GET', url: '/meta/charging_rule' });
}

/** The lists the server wrote into the page (`<script type="application/json" id="slg-meta">`), as the API answers them. */
interface EmbeddedMeta {
  zone?: Zone[];
  gpu?: GpuModel[];
  'images/public'?: PublicImage[];
}

/** When the page loaded: the embedded lists count as fetched then, and are refetched as they go stale. */
const PAGE_LOADED_AT = Date.now();

function readEmbeddedMeta(): EmbeddedMeta {
  try {
    const text = typeof document === 'undefined' ? null : document.getElementById('slg-meta')?.textContent;
    return text ? (JSON.parse(text) as EmbeddedMeta) : {};
  } catch {
    // A page without the lists (or a broken one) simply fetches them.
    return {};
  }
}

const EMBEDDED_META = readEmbeddedMeta();

/** The first render of the public pages needs no request for the lists the page carries. */
function embedded<T>(list: T[] | undefined) {
  return list ? { initialData: list, initialDataUpdatedAt: PAGE_LOADED_AT } : {};
}

export function useZones() {
  return useQuery({ queryKey: ZONES_QUERY_KEY, queryFn: fetchZones, staleTime: META_STALE_TIME_MS, ...embedded(EMBEDDED_META.zone) });
}

export function useGpus() {
  return useQuery({ queryKey: GPUS_QUERY_KEY, queryFn: fetchGpus, staleTime: META_STALE_TIME_MS, ...embedded(EMBEDDED_META.gpu) });
}

export function usePublicImages() {
  return useQuery({
    queryKey: PUBLIC_IMAGES_QUERY_KEY,
    queryFn: fetchPublicImages,
    staleTime: META_STALE_TIME_MS,
    ...embedded(EMBEDDED_META['images/public']),
  });
}

export function useChargingRules() {
  return useQuery({
    queryKey: CHARGING_RULES_QUERY_KEY,
    queryFn: fetchChargingRules,
    staleTime: META_STALE_TIME_MS,
  });
}
