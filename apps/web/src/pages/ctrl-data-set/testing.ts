/** Fixtures of the 数据集 tests (imported by *.test.tsx only). */
import type { DatasetView } from '../../api/datasets';

export function dataset(overrides: Partial<DatasetView> & Pick<DatasetView, 'id' | 'name'>): DatasetView {
  return {
    kind: 'SHARED',
    description: '',
    tags: [],
    license: null,
    sizeBytes: 0,
    fileCount: 0,
    mountPath: `/root/slg-pub/${overrides.name}`,
    status: 'PASS',
    rejectReason: null,
    ownerName: null,
    mine: false,
    favorited: false,
    favoriteCount: 0,
    zoneId: null,
    sourcePath: null,
    createdAt: '2026-06-01T02:00:00Z',
    updatedAt: '2026-06-02T02:00:00Z',
    reviewedAt: null,
    ...overrides,
  };
}

export const GB2312 = dataset({
  id: 1,
  kind: 'PUBLIC',
  name: 'gb2312-hanzi',
  description: 'GB 2312 的 6763 个汉字及其区位码',
  tags: ['汉字', 'CSV'],
  license: 'Unicode-3.0',
  sizeBytes: 300 * 1024,
  fileCount: 2,
});

export const MNIST = dataset({
  id: 11,
  name: 'mnist-images',
  description: '手写数字图片',
  tags: ['图像'],
  license: 'CC-BY-4.0',
  sizeBytes: 50 * 1024 * 1024,
  fileCount: 70000,
  ownerName: '小明',
  favoriteCount: 3,
});

export const CORPUS = dataset({ id: 12, name: '中文语料', description: '新闻语料', ownerName: '138****0000', favorited: true, favoriteCount: 8, sizeBytes: 2048 });

export const ZONES = [
  { id: 'bj-a', name: '北京A区', region: '华北', description: '' },
  { id: 'sh-b', name: '上海B区', region: '华东', description: '' },
];

export const STORE = {
  zoneId: 'bj-a',
  initialized: true,
  usedBytes: 1024,
  quotaBytes: 200 * 1024 ** 3,
  freeBytes: 20 * 1024 ** 3,
  priceFenPerGbDay: 1,
  mountPath: '/root/slg-fs',
  writesBlocked: false,
};
