/** 弹性部署: the estimate, the matching stock, the bodies of 创建 and 编辑, and how durations read. */
import { describe, expect, it } from 'vitest';
import type { ElasticStockView } from '../../api/elastic';
import {
  chosenHours,
  concurrentContainers,
  createBody,
  cudaChoices,
  discountLabel,
  duplicateNames,
  editBody,
  editValuesOf,
  estimateHourly,
  filterSummary,
  formatDuration,
  gpuHours,
  matchingStock,
  modelStock,
  priceRange,
  type CreateValues,
} from './rules';
import { DEPLOYMENT } from './testing';

const row = (over: Partial<ElasticStockView>): ElasticStockView => ({
  gpuModelId: 'rtx4090',
  gpuModelName: 'RTX 4090',
  zoneId: 'bj-a',
  zoneName: '北京A区',
  free: 8,
  total: 16,
  minPriceFen: 180,
  maxPriceFen: 220,
  cudaMax: '12.4',
  ...over,
});

const STOCK: ElasticStockView[] = [
  row({}),
  row({ zoneId: 'sh-b', zoneName: '上海B区', free: 2, total: 8, minPriceFen: 170, maxPriceFen: 170, cudaMax: '12.2' }),
  row({ gpuModelId: 'a100', gpuModelName: 'A100', free: 4, total: 8, minPriceFen: 600, maxPriceFen: 700, cudaMax: '12.8' }),
];

const ANY = { zoneIds: [], gpuModelIds: [] };

describe('the stock a deployment matches', () => {
  it('keeps the rows of the chosen zones and models, a CUDA at least the filter and the image ask, and a price within the cap', () => {
    expect(matchingStock(STOCK, ANY)).toHaveLength(3);
    expect(matchingStock(STOCK, { zoneIds: ['sh-b'], gpuModelIds: [] }).map((item) => item.zoneId)).toEqual(['sh-b']);
    expect(matchingStock(STOCK, { zoneIds: [], gpuModelIds: ['a100'] }).map((item) => item.gpuModelId)).toEqual(['a100']);
    // 12.10 is newer than 12.4: versions compare numerically.
    expect(matchingStock(STOCK, { ...ANY, cudaMin: '12.4' })).toHaveLength(2);
    expect(matchingStock(STOCK, { ...ANY, imageCuda: '12.6' }).map((item) => item.gpuModelId)).toEqual(['a100']);
    expect(matchingStock([row({ cudaMax: '12.10' })], { ...ANY, cudaMin: '12.4' })).toHaveLength(1);
    // A row whose cheapest host is within the cap matches.
    expect(matchingStock(STOCK, { ...ANY, priceMaxFen: 180 })).toHaveLength(2);
    expect(matchingStock(STOCK, { ...ANY, priceMaxFen: 100 })).toHaveLength(0);
  });

  it('sums a model over the chosen zones and a zone over the chosen models', () => {
    expect(modelStock(STOCK, 'rtx4090', [])).toEqual({ free: 10, total: 24, minPriceFen: 170, maxPriceFen: 220 });
    expect(modelStock(STOCK, 'rtx4090', ['bj-a'])).toEqual({ free: 8, total: 16, minPriceFen: 180, maxPriceFen: 220 });
    expect(modelStock(STOCK, 'h100', [])).toBeUndefined();
    expect(priceRange(STOCK)).toEqual({ minFen: 170, maxFen: 700 });
    expect(priceRange([])).toBeNull();
    expect(cudaChoices(STOCK)).toEqual(['12.2', '12.4', '12.8']);
  });
});

describe('the estimate per hour', () => {
  it('is the cheapest matching price × GPUs per container × containers running at once', () => {
    const estimate = estimateHourly(STOCK, ANY, 2, 3);
    expect(estimate).toEqual({ pricePerGpuHourFen: 170, hourlyFen: 170 * 6, maxHourlyFen: 700 * 6, freeGpus: 14, enoughFree: true });
    expect(estimateHourly(STOCK, { zoneIds: ['bj-a'], gpuModelIds: ['rtx4090'] }, 1, 3)?.hourlyFen).toBe(540);
  });

  it('caps the dearest price at the price cap, says when free GPUs fall short, and is null without a match', () => {
    const capped = estimateHourly(STOCK, { ...ANY, priceMaxFen: 200 }, 1, 1);
    expect(capped?.pricePerGpuHourFen).toBe(170);
    expect(capped?.maxHourlyFen).toBe(200);
    expect(estimateHourly(STOCK, { zoneIds: ['sh-b'], gpuModelIds: [] }, 2, 2)?.enoughFree).toBe(false);
    expect(estimateHourly(STOCK, { ...ANY, cudaMin: '13.0' }, 1, 1)).toBeNull();
  });

  it('counts the containers a type runs at once: replicas, a job’s parallelism, one temporary container', () => {
    expect(concurrentContainers('REPLICA_SET', 4, 1)).toBe(4);
    expect(concurrentContainers('JOB', 10, 3)).toBe(3);
    expect(concurrentContainers('JOB', 2, 5)).toBe(2);
    expect(concurrentContainers('CONTAINER', 5, 5)).toBe(1);
  });
});

describe('the body of 创建', () => {
  const base: CreateValues = {
    type: 'REPLICA_SET',
    name: '  llm-serve ',
    imageId: 'pytorch-2.5.1',
    gpuNum: 2,
    replicaNum: 3,
    parallelismNum: 1,
    env: [],
    ports: [],
    zoneIds: [],
    gpuModelIds: [],
    cudaMin: undefined,
    priceMaxFen: null,
    cmd: '  ',
  };

  it('sends only what is set: no empty filters, command, environment or ports', () => {
    expect(createBody(base)).toEqual({ name: 'llm-serve', type: 'REPLICA_SET', imageId: 'pytorch-2.5.1', gpuNum: 2, replicaNum: 3 });
  });

  it('sends the filters, command, environment (named rows) and ports when set', () => {
    expect(
      createBody({
        ...base,
        zoneIds: ['bj-a'],
        gpuModelIds: ['rtx4090'],
        cudaMin: '12.4',
        priceMaxFen: 200,
        cmd: ' python serve.py ',
        env: [{ name: ' MODEL ', value: 'qwen' }, { name: '', value: 'dropped' }, { name: 'EMPTY' }],
        ports: [{ port: 8000, protocol: 2 }, { port: null, protocol: 1 }],
      }),
    ).toEqual({
      name: 'llm-serve',
      type: 'REPLICA_SET',
      imageId: 'pytorch-2.5.1',
      gpuNum: 2,
      replicaNum: 3,
      zoneIds: ['bj-a'],
      gpuModelIds: ['rtx4090'],
      cudaMin: '12.4',
      priceMaxFen: 200,
      cmd: 'python serve.py',
      env: { MODEL: 'qwen', EMPTY: '' },
      ports: [{ port: 8000, protocol: 2 }],
    });
  });

  it('gives a job its parallelism (at most its count) and a temporary container one replica', () => {
    expect(createBody({ ...base, type: 'JOB', replicaNum: 4, parallelismNum: 9 })).toMatchObject({ replicaNum: 4, parallelismNum: 4 });
    const container = createBody({ ...base, type: 'CONTAINER', replicaNum: 5 });
    expect(container.replicaNum).toBe(1);
    expect(container).not.toHaveProperty('parallelismNum');
  });
});

describe('the body of 编辑', () => {
  it('is empty when nothing changed', () => {
    expect(editBody(DEPLOYMENT, editValuesOf(DEPLOYMENT))).toEqual({});
  });

  it('sends only the changed fields; a cleared command, CUDA floor or price cap as null', () => {
    const values = { ...editValuesOf(DEPLOYMENT), replicaNum: 5, env: [{ name: 'MODEL', value: 'llama' }], zoneIds: [], cudaMin: '12.4', priceMaxFen: 250 };
    expect(editBody(DEPLOYMENT, values)).toEqual({ replicaNum: 5, env: { MODEL: 'llama' }, zoneIds: [], cudaMin: '12.4', priceMaxFen: 250 });
    expect(editBody({ ...DEPLOYMENT, cudaMin: '12.4', priceMaxFen: 250 }, { ...editValuesOf(DEPLOYMENT), cudaMin: undefined, priceMaxFen: null })).toEqual({
      cudaMin: null,
      priceMaxFen: null,
    });
    expect(editBody(DEPLOYMENT, { ...editValuesOf(DEPLOYMENT), imageId: 'img-aaaaaaaaaaaa', cmd: '  ' })).toEqual({ imageId: 'img-aaaaaaaaaaaa', cmd: null });
    expect(editBody({ ...DEPLOYMENT, cmd: null }, { ...editValuesOf(DEPLOYMENT), cmd: '' })).toEqual({});
  });

  it('leaves the counts a type does not have alone', () => {
    const container = { ...DEPLOYMENT, type: 'CONTAINER' as const, replicaNum: 1 };
    expect(editBody(container, { ...editValuesOf(container), replicaNum: 4, parallelismNum: 3 })).toEqual({});
    const job = { ...DEPLOYMENT, type: 'JOB' as const };
    expect(editBody(job, { ...editValuesOf(job), parallelismNum: 2 })).toEqual({ parallelismNum: 2 });
  });

  it('finds duplicate environment names', () => {
    expect([...duplicateNames(['A', ' B', 'A ', undefined, 'C', 'B'])]).toEqual(['A', 'B']);
  });
});

describe('reading', () => {
  it('formats run times', () => {
    expect(formatDuration(0)).toBe('0秒');
    expect(formatDuration(45)).toBe('45秒');
    expect(formatDuration(725)).toBe('12分5秒');
    expect(formatDuration(600)).toBe('10分');
    expect(formatDuration(3 * 3600 + 125)).toBe('3小时2分');
    expect(formatDuration(2 * 86400 + 4 * 3600 + 59)).toBe('2天4小时');
    expect(formatDuration(86400)).toBe('1天');
  });

  it('reads GPU-seconds as hours, discounts as 折, and the chosen hours of a pack', () => {
    expect(gpuHours(36_000)).toBe('10');
    expect(gpuHours(5_400)).toBe('1.5');
    expect(gpuHours(3_599)).toBe('0.9');
    expect(discountLabel(85)).toBe('8.5折');
    expect(discountLabel(90)).toBe('9折');
    expect(discountLabel(100)).toBeNull();
    expect(chosenHours(100, null)).toBe(100);
    expect(chosenHours('custom', 30)).toBe(30);
    expect(chosenHours('custom', 0)).toBeNull();
    expect(chosenHours('custom', 2.5)).toBeNull();
    expect(chosenHours('custom', 10_001)).toBeNull();
  });

  it('says the filters in words', () => {
    const texts = {
      zones: (names: string) => `地区：${names}`,
      gpus: (names: string) => `型号：${names}`,
      cuda: (cuda: string) => `CUDA ≥ ${cuda}`,
      price: (price: string) => `单价 ≤ ${price}`,
      none: '不限',
      separator: '、',
    };
    const names = { zone: (id: string) => ({ 'bj-a': '北京A区', 'sh-b': '上海B区' })[id] ?? id, gpu: (id: string) => id.toUpperCase() };
    expect(filterSummary({ zoneIds: ['bj-a', 'sh-b'], gpuModelIds: ['a100'], cudaMin: '12.4', priceMaxFen: 250 }, names, texts, (fen) => `¥${fen / 100}`)).toEqual([
      '地区：北京A区、上海B区',
      '型号：A100',
      'CUDA ≥ 12.4',
      '单价 ≤ ¥2.5',
    ]);
    expect(filterSummary({ zoneIds: [], gpuModelIds: [], cudaMin: null, priceMaxFen: null }, names, texts, String)).toEqual(['不限']);
  });
});
