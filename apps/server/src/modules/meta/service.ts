import { asc, eq, sql } from 'drizzle-orm';
import { CHARGING_RULES, INSTANCE_HEALTHS, INSTANCE_STATUSES, RENTAL_EVENT_TYPES } from '@slg/shared';
import type { Executor } from '../../db/client.js';
import { DEFAULT_BASE_IMAGE } from '../../config.js';
import { cpuModels, gpuModels, publicImages, zones } from '../../db/schema/meta.js';

/**
 * Metadata lists (spec §7 "Metadata lists"). Zones, GPU / CPU models and public images are table
 * rows the operator edits (enabled ones only, by sort order then id, one query each); statuses,
 * health, rental events and charging rules are the shared dictionaries.
 */
export class MetaService {
  constructor(
    private readonly db: Executor,
    /** What a public image without its own reference runs on Docker hosts (DOCKER_BASE_IMAGE). */
    private readonly baseImage: string = DEFAULT_BASE_IMAGE,
  ) {}

  zones() {
    return this.db
      .select({ id: zones.id, name: zones.name, region: zones.region, description: zones.description })
      .from(zones)
      .where(eq(zones.enabled, true))
      .orderBy(asc(zones.sortOrder), asc(zones.id));
  }

  gpus() {
    return this.db
      .select({
        id: gpuModels.id,
        name: gpuModels.name,
        memoryGb: gpuModels.memoryGb,
        vendor: gpuModels.vendor,
        architecture: gpuModels.architecture,
        fp32Tflops: gpuModels.fp32Tflops,
        pricePerHourFen: gpuModels.pricePerHourFen,
      })
      .from(gpuModels)
      .where(eq(gpuModels.enabled, true))
      .orderBy(asc(gpuModels.sortOrder), asc(gpuModels.id));
  }

  /** CPU models have no `enabled` flag: every row is listed. */
  cpus() {
    return this.db
      .select({ id: cpuModels.id, name: cpuModels.name, cores: cpuModels.cores, baseClockGhz: cpuModels.baseClockGhz })
      .from(cpuModels)
      .orderBy(asc(cpuModels.sortOrder), asc(cpuModels.id));
  }

  publicImages() {
    return this.db
      .select({
        id: publicImages.id,
        name: publicImages.name,
        framework: publicImages.framework,
        frameworkVersion: publicImages.frameworkVersion,
        python: publicImages.python,
        cuda: publicImages.cuda,
        ubuntu: publicImages.ubuntu,
        sizeGb: publicImages.sizeGb,
        imageRef: sql<string>`coalesce(${publicImages.imageRef}, ${this.baseImage})`,
      })
      .from(publicImages)
      .where(eq(publicImages.enabled, true))
      .orderBy(asc(publicImages.sortOrder), asc(publicImages.id));
  }
}

export const INSTANCE_STATUS_LIST = INSTANCE_STATUSES.map(({ id, value, label, color, isFilter }) => ({
  id,
  name: value,
  showName: label,
  color,
  isFilter,
}));

export const INSTANCE_HEALTH_LIST = INSTANCE_HEALTHS.map(({ id, value, label }) => ({ id, name: value, showName: label }));

export const RENTAL_EVENT_TYPE_LIST = RENTAL_EVENT_TYPES.map(({ id, value, label }) => ({
  id,
  name: value,
  showName: label,
}));

export const CHARGING_RULE_LIST = CHARGING_RULES.map(({ id, name, showName, isFilter, unit }) => ({
  id,
  name,
  showName,
  isFilter,
  unit,
}));
