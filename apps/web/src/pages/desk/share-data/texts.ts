/** Texts of 共享数据 (`/share-data`), the public list of shared datasets. */
import { DATASET_MOUNT_ROOT } from '@slg/shared';

export const SHARE_DATA_TEXTS = {
  title: '共享数据',
  subtitle: `算力港用户共享的数据集，经平台审核后公开。收藏后，创建实例时即可选择挂载，数据只读出现在实例的 ${DATASET_MOUNT_ROOT}/<名称>。`,
  search: '搜索共享数据集',
  searchPlaceholder: '搜索名称或描述',
  listLabel: '共享数据集',
  loadFailed: '共享数据集加载失败',
  refreshFailed: '刷新失败，显示的是上次加载的列表',
  empty: '还没有人共享数据集',
  emptyFiltered: '没有匹配的共享数据集',
  total: (total: number) => `共 ${total} 个`,
  favorite: '收藏',
  favoriteLabel: (name: string) => `收藏 ${name}`,
  signInHint: '登录后可收藏',
  console: '管理我的数据集',
} as const;
