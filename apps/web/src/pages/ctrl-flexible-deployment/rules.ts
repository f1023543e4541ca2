/**
 * 弹性部署: what the pages compute without asking the server — which stock a deployment's filters
 * match, the price per hour it is estimated at, the body of 创建 and the changes 编辑 sends, and how
 * durations and discounts read. Pure functions (tested in rules.test.ts).
 */
import { compareVersions, TIME_PACK_MAX_HOURS, type ElasticTypeValue } from '@slg/shared';
import type { CreateElasticBody, EditElasticBody, ElasticDeploymentView, ElasticStockView } from '../../api/elastic';

/** What the filters of a deployment (and its image) ask of a host; empty lists mean any. */
export interface StockFilter {
  zoneIds: readonly string[];
  gpuModelIds: readonly string[];
  cudaMin?: string | undefined;
  priceMaxFen?: number | undefined;
  /** The image's CUDA: a host must run at least this too. */
  imageCuda?: string | undefined;
}

/** How many containers run at once: a job runs at most its parallelism, a temporary container one. */
export function concurrentContainers(type: ElasticTypeValue, replicaNum: number, parallelismNum: number): number {
  if (type === 'CONTAINER') return 1;
  if (type === 'JOB') return Math.max(0, Math.min(replicaNum, parallelismNum));
  return Math.max(0, replicaNum);
}

/** The stock rows (GPU model × zone) whose hosts the filters allow. */
export function matchingStock(stock: readonly ElasticStockView[], filter: StockFilter): ElasticStockView[] {
  return stock.filter(
    (row) =>
      (filter.zoneIds.length === 0 || filter.zoneIds.includes(row.zoneId)) &&
      (filter.gpuModelIds.length === 0 || filter.gpuModelIds.includes(row.gpuModelId)) &&
      (!filter.cudaMin || compareVersions(row.cudaMax, filter.cudaMin) >= 0) &&
      (!filter.imageCuda || compareVersions(row.cudaMax, filter.imageCuda) >= 0) &&
      (filter.priceMaxFen === undefined || row.minPriceFen <= filter.priceMaxFen),
  );
}

export interface HourlyEstimate {
  /** The cheapest matching price per GPU-hour (fen). */
  pricePerGpuHourFen: number;
  /** That price × GPUs per container × containers running at once. */
  hourlyFen: number;
  /** The dearest the containers could cost per hour on matching hosts (within the price cap). */
  maxHourlyFen: number;
  /** Free GPUs on matching hosts now. */
  freeGpus: number;
  /** Whether the free GPUs cover every container now (else some wait for stock). */
  enoughFree: boolean;
}

/**
 * The estimated price per hour: the cheapest matching stock price × GPUs × containers; null when no
 * host matches the filters (the containers would wait).
 */
export function estimateHourly(stock: readonly ElasticStockView[], filter: StockFilter, gpuNum: number, containers: number): HourlyEstimate | null {
  const rows = matchingStock(stock, filter);
  if (rows.length === 0) return null;
  const cheapest = Math.min(...rows.map((row) => row.minPriceFen));
  const dearest = Math.max(...rows.map((row) => (filter.priceMaxFen === undefined ? row.maxPriceFen : Math.min(row.maxPriceFen, filter.priceMaxFen))));
  const freeGpus = rows.reduce((sum, row) => sum + row.free, 0);
  const gpus = gpuNum * containers;
  return {
    pricePerGpuHourFen: cheapest,
    hourlyFen: cheapest * gpus,
    maxHourlyFen: Math.max(cheapest, dearest) * gpus,
    freeGpus,
    enoughFree: freeGpus >= gpus,
  };
}

/** The lowest and highest price per GPU-hour over all stock (the price cap's range); null without stock. */
export function priceRange(stock: readonly ElasticStockView[]): { minFen: number; maxFen: number } | null {
  if (stock.length === 0) return null;
  return { minFen: Math.min(...stock.map((row) => row.minPriceFen)), maxFen: Math.max(...stock.map((row) => row.maxPriceFen)) };
}

/** The CUDA versions hosts offer, oldest first (the choices of CUDA 最低版本). */
export function cudaChoices(stock: readonly ElasticStockView[]): string[] {
  return [...new Set(stock.map((row) => row.cudaMax))].sort(compareVersions);
}

export interface StockSum {
  free: number;
  total: number;
  minPriceFen: number;
  maxPriceFen: number;
}

function sumRows(rows: readonly ElasticStockView[]): StockSum | undefined {
  if (rows.length === 0) return undefined;
  return {
    free: rows.reduce((sum, row) => sum + row.free, 0),
    total: rows.reduce((sum, row) => sum + row.total, 0),
    minPriceFen: Math.min(...rows.map((row) => row.minPriceFen)),
    maxPriceFen: Math.max(...rows.map((row) => row.maxPriceFen)),
  };
}

/** Stock of one GPU model over the chosen zones (all zones when none is chosen). */
export function modelStock(stock: readonly ElasticStockView[], gpuModelId: string, zoneIds: readonly string[]): StockSum | undefined {
  return sumRows(stock.filter((row) => row.gpuModelId === gpuModelId && (zoneIds.length === 0 || zoneIds.includes(row.zoneId))));
}

/** Stock of one zone over the chosen GPU models (all models when none is chosen). */
export function zoneStock(stock: readonly ElasticStockView[], zoneId: string, gpuModelIds: readonly string[]): StockSum | undefined {
  return sumRows(stock.filter((row) => row.zoneId === zoneId && (gpuModelIds.length === 0 || gpuModelIds.includes(row.gpuModelId))));
}

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

export interface EnvRow {
  name?: string;
  value?: string;
}

export interface PortRow {
  port?: number | null;
  protocol?: 1 | 2;
}

/** What a container runs and where: the part of the form 创建 and 编辑 share. */
export interface TemplateValues {
  imageId?: string;
  cmd?: string;
  env?: EnvRow[];
  zoneIds?: string[];
  gpuModelIds?: string[];
  cudaMin?: string | null;
  /** Fen per GPU-hour; undefined: no cap. */
  priceMaxFen?: number | null;
}

export interface CreateValues extends TemplateValues {
  type: ElasticTypeValue;
  name: string;
  gpuNum: number;
  replicaNum: number;
  parallelismNum: number;
  ports?: PortRow[];
}

export interface EditValues extends TemplateValues {
  replicaNum?: number;
  parallelismNum?: number;
}

/** The environment as the API takes it: rows without a name left out, names trimmed. */
export function envRecord(rows: readonly EnvRow[] | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const row of rows ?? []) {
    const name = row.name?.trim();
    if (name) record[name] = row.value ?? '';
  }
  return record;
}

export function envRows(record: Readonly<Record<string, string>>): EnvRow[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

function trimmed(value: string | null | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

/** The body of 创建 from the form: optional fields only when set; a temporary container has one replica. */
export function createBody(values: CreateValues): CreateElasticBody {
  const env = envRecord(values.env);
  const ports = (values.ports ?? [])
    .filter((row): row is { port: number; protocol?: 1 | 2 } => typeof row.port === 'number')
    .map((row) => ({ port: row.port, protocol: row.protocol ?? 1 }));
  const cmd = trimmed(values.cmd);
  const cudaMin = trimmed(values.cudaMin);
  return {
    name: values.name.trim(),
    type: values.type,
    imageId: values.imageId ?? '',
    gpuNum: values.gpuNum,
    replicaNum: values.type === 'CONTAINER' ? 1 : values.replicaNum,
    ...(values.type === 'JOB' ? { parallelismNum: Math.min(values.parallelismNum, values.replicaNum) } : {}),
    ...(values.zoneIds?.length ? { zoneIds: values.zoneIds } : {}),
    ...(values.gpuModelIds?.length ? { gpuModelIds: values.gpuModelIds } : {}),
    ...(cudaMin ? { cudaMin } : {}),
    ...(typeof values.priceMaxFen === 'number' ? { priceMaxFen: values.priceMaxFen } : {}),
    ...(cmd ? { cmd } : {}),
    ...(Object.keys(env).length ? { env } : {}),
    ...(ports.length ? { ports } : {}),
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && b[key] === a[key]);
}

/** The form of 编辑 filled from the deployment. */
export function editValuesOf(deployment: ElasticDeploymentView): EditValues {
  return {
    replicaNum: deployment.replicaNum,
    parallelismNum: deployment.parallelismNum,
    imageId: deployment.imageId,
    cmd: deployment.cmd ?? '',
    env: envRows(deployment.env),
    zoneIds: deployment.zoneIds,
    gpuModelIds: deployment.gpuModelIds,
    cudaMin: deployment.cudaMin,
    priceMaxFen: deployment.priceMaxFen,
  };
}

/**
 * What 编辑 sends: only the fields that changed (a changed image, command or environment replaces the
 * running containers, so an unchanged one is not sent). A cleared command, CUDA floor or price cap is
 * sent as null, cleared zones or models as `[]`: the server reads both as "any".
 */
export function editBody(deployment: ElasticDeploymentView, values: EditValues): EditElasticBody {
  const body: EditElasticBody = {};
  if (deployment.type !== 'CONTAINER' && values.replicaNum !== undefined && values.replicaNum !== deployment.replicaNum) body.replicaNum = values.replicaNum;
  if (deployment.type === 'JOB' && values.parallelismNum !== undefined && values.parallelismNum !== deployment.parallelismNum) body.parallelismNum = values.parallelismNum;
  if (values.imageId && values.imageId !== deployment.imageId) body.imageId = values.imageId;
  const cmd = values.cmd?.trim() ? values.cmd : null;
  if ((cmd?.trim() ?? null) !== (deployment.cmd?.trim() ?? null)) body.cmd = cmd;
  const env = envRecord(values.env);
  if (!sameRecord(env, deployment.env)) body.env = env;
  const zoneIds = values.zoneIds ?? [];
  if (!sameList(zoneIds, deployment.zoneIds)) body.zoneIds = zoneIds;
  const gpuModelIds = values.gpuModelIds ?? [];
  if (!sameList(gpuModelIds, deployment.gpuModelIds)) body.gpuModelIds = gpuModelIds;
  const cudaMin = values.cudaMin?.trim() || null;
  if (cudaMin !== (deployment.cudaMin || null)) body.cudaMin = cudaMin;
  const priceMaxFen = typeof values.priceMaxFen === 'number' ? values.priceMaxFen : null;
  if (priceMaxFen !== deployment.priceMaxFen) body.priceMaxFen = priceMaxFen;
  return body;
}

/** Names used more than once in the environment (trimmed), to flag the second and later rows. */
export function duplicateNames(values: readonly (string | undefined)[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const value of values) {
    const name = value?.trim();
    if (!name) continue;
    if (seen.has(name)) twice.add(name);
    seen.add(name);
  }
  return twice;
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** A run time: `45秒`, `12分5秒`, `3小时2分`, `2天4小时`. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const rest = total % 60;
  if (days > 0) return hours > 0 ? `${days}天${hours}小时` : `${days}天`;
  if (hours > 0) return minutes > 0 ? `${hours}小时${minutes}分` : `${hours}小时`;
  if (minutes > 0) return rest > 0 ? `${minutes}分${rest}秒` : `${minutes}分`;
  return `${rest}秒`;
}

/** GPU-seconds as hours with at most one decimal: 36000 → `10`, 5400 → `1.5`. */
export function gpuHours(seconds: number): string {
  const hours = Math.floor(seconds / 360) / 10;
  return Number.isInteger(hours) ? String(hours) : hours.toFixed(1);
}

/** A discount as Chinese shops say it: 85 → `8.5折`, 90 → `9折`; 100 → null (none). */
export function discountLabel(percent: number): string | null {
  if (percent >= 100) return null;
  return `${percent % 10 === 0 ? percent / 10 : (percent / 10).toFixed(1)}折`;
}

/** The filters in words: `地区：北京A区、上海B区`, `CUDA ≥ 12.4`…; the one line 不限 when none is set. */
export function filterSummary(
  filter: { zoneIds: readonly string[]; gpuModelIds: readonly string[]; cudaMin?: string | null; priceMaxFen?: number | null },
  names: { zone: (id: string) => string; gpu: (id: string) => string },
  texts: {
    zones: (names: string) => string;
    gpus: (names: string) => string;
    cuda: (cuda: string) => string;
    price: (price: string) => string;
    none: string;
    separator: string;
  },
  formatPrice: (fen: number) => string,
): string[] {
  const parts: string[] = [];
  if (filter.zoneIds.length) parts.push(texts.zones(filter.zoneIds.map(names.zone).join(texts.separator)));
  if (filter.gpuModelIds.length) parts.push(texts.gpus(filter.gpuModelIds.map(names.gpu).join(texts.separator)));
  if (filter.cudaMin) parts.push(texts.cuda(filter.cudaMin));
  if (typeof filter.priceMaxFen === 'number' && filter.priceMaxFen > 0) parts.push(texts.price(formatPrice(filter.priceMaxFen)));
  return parts.length ? parts : [texts.none];
}

/** The 自定义 choice of a pack's hours. */
export const CUSTOM_HOURS = 'custom';

/** The hours a choice stands for: a listed choice, or the custom number when it is a whole number in range (else null). */
export function chosenHours(choice: number | typeof CUSTOM_HOURS, custom: number | null): number | null {
  if (choice !== CUSTOM_HOURS) return choice;
  return custom !== null && Number.isInteger(custom) && custom >= 1 && custom <= TIME_PACK_MAX_HOURS ? custom : null;
}
