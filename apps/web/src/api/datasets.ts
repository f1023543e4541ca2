/**
 * 数据集 (docs/api-datasets.md): public datasets the platform curates, datasets users share from their
 * 文件存储 (reviewed before others see them), favourites, and the files of a dataset. Every dataset is
 * mounted read-only at /root/slg-pub/<name> in instances.
 */
import { DATASETS_PER_INSTANCE_MAX, ErrorCodes, MAX_PAGE_SIZE, type DatasetStatus, type Page } from '@slg/shared';
import type { DatasetView } from '@slg/shared/views/datasets';
import type { StorageListingView } from '@slg/shared/views/storage';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { isApiError, request } from './client';
import type { DownloadLink } from './download';
import { queryKeys } from './queryKeys';

export type { DatasetView } from '@slg/shared/views/datasets';

export interface DatasetListQuery {
  page: number;
  pageSize: number;
  /** Part of the name (shared ones: of the name or the description). */
  name?: string | undefined;
}

export interface SharedDatasetListQuery extends DatasetListQuery {
  tag?: string | undefined;
}

export interface MyDatasetListQuery {
  page: number;
  pageSize: number;
  status?: DatasetStatus | undefined;
}

export interface PageQuery {
  page: number;
  pageSize: number;
}

/** `POST /share-data`: snapshots the folder `path` of the region's 文件存储. */
export interface CreateDatasetBody {
  name: string;
  description: string;
  zoneId: string;
  path: string;
  tags?: string[];
  license?: string;
}

/** `PUT /share-data/{id}`: any of the fields; with `path` (and `zoneId`) the folder is snapshotted again. */
export type UpdateDatasetBody = Partial<CreateDatasetBody>;

export const datasetKeys = {
  all: queryKeys.datasets,
  publicList: (query: DatasetListQuery) => [...queryKeys.datasets, 'public', query] as const,
  sharedList: (query: SharedDatasetListQuery) => [...queryKeys.datasets, 'shared', query] as const,
  mine: (query: MyDatasetListQuery) => [...queryKeys.datasets, 'mine', query] as const,
  favorites: (query: PageQuery) => [...queryKeys.datasets, 'favorites', query] as const,
  /** What an instance may mount: the favourites and the account's own approved ones. */
  mountable: () => [...queryKeys.datasets, 'mountable'] as const,
  one: (id: number) => [...queryKeys.datasets, 'one', id] as const,
  folder: (id: number, path: string) => [...queryKeys.datasets, 'files', id, path] as const,
};

/** Leaves out an empty search, so the query string and the query key stay the same without it. */
function withoutEmpty<T extends object>(query: T): T {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as T;
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

/** Silent: the pages show a failed list in place. */
export function fetchPublicDatasets(query: DatasetListQuery): Promise<Page<DatasetView>> {
  return request<Page<DatasetView>>({ url: '/public-data/list', params: { ...withoutEmpty(query) }, silent: true });
}

export function fetchSharedDatasets(query: SharedDatasetListQuery): Promise<Page<DatasetView>> {
  return request<Page<DatasetView>>({ url: '/share-data/list', params: { ...withoutEmpty(query) }, silent: true });
}

export function fetchMyDatasets(query: MyDatasetListQuery): Promise<Page<DatasetView>> {
  return request<Page<DatasetView>>({ url: '/share-data/list/me', params: { ...withoutEmpty(query) }, silent: true });
}

export function fetchFavoriteDatasets(query: PageQuery): Promise<Page<DatasetView>> {
  return request<Page<DatasetView>>({ url: '/share-data/favorites', params: { ...query }, silent: true });
}

export function fetchDataset(id: number): Promise<DatasetView> {
  return request<DatasetView>({ url: `/share-data/${id}`, silent: true });
}

export function favoriteDataset(id: number): Promise<DatasetView> {
  return request<DatasetView>({ method: 'POST', url: `/share-data/favorites/${id}` });
}

export function unfavoriteDataset(id: number): Promise<DatasetView> {
  return request<DatasetView>({ method: 'DELETE', url: `/share-data/favorites/${id}` });
}

export function createDataset(body: CreateDatasetBody): Promise<{ id: number }> {
  return request<{ id: number }>({ method: 'POST', url: '/share-data', data: body });
}

export function updateDataset(id: number, body: UpdateDatasetBody): Promise<DatasetView> {
  return request<DatasetView>({ method: 'PUT', url: `/share-data/${id}`, data: body });
}

export function deleteDataset(id: number): Promise<unknown> {
  return request<unknown>({ method: 'DELETE', url: `/share-data/${id}` });
}

/** A folder of the dataset's snapshot, as `GET /storage/files` lists one. */
export function fetchDatasetFolder(id: number, path: string): Promise<StorageListingView> {
  return request<StorageListingView>({ url: `/datasets/${id}/files`, params: { path }, silent: true });
}

/** A signed download link to a file of the dataset (the browser downloads it itself; valid a few minutes). */
export function datasetFileDownloadLink(id: number, path: string): Promise<DownloadLink> {
  return request<DownloadLink>({ method: 'POST', url: `/datasets/${id}/download-url`, data: { path } });
}

/**
 * The shared datasets an instance can mount (`datasetIds` of POST /rental and the clones): the
 * account's own approved ones, then the favourites (newest first), one entry each. Public datasets are left
 * out: every machine has them. Silent: the create pages say in place that the list did not load.
 */
export async function fetchMountableDatasets(): Promise<DatasetView[]> {
  const [favorites, mine] = await Promise.all([
    fetchFavoriteDatasets({ page: 1, pageSize: MAX_PAGE_SIZE }),
    fetchMyDatasets({ page: 1, pageSize: MAX_PAGE_SIZE, status: 'PASS' }),
  ]);
  const byId = new Map<number, DatasetView>();
  for (const dataset of [...mine.list, ...favorites.list]) {
    if (dataset.kind === 'SHARED' && dataset.status === 'PASS') byId.set(dataset.id, dataset);
  }
  return [...byId.values()];
}

/** Whether a refusal is about the name the form sent (40026: the account already has a dataset of that name). */
export function isDatasetNameError(error: unknown): boolean {
  return isApiError(error) && error.code === ErrorCodes.NAME_EXISTS.code;
}

/** Every list of datasets is read again (after a favourite, a share, an edit or a delete). */
export function invalidateDatasets(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: datasetKeys.all });
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

export function usePublicDatasetsQuery(query: DatasetListQuery) {
  return useQuery({ queryKey: datasetKeys.publicList(query), queryFn: () => fetchPublicDatasets(query), placeholderData: keepPreviousData });
}

export function useSharedDatasetsQuery(query: SharedDatasetListQuery) {
  return useQuery({ queryKey: datasetKeys.sharedList(query), queryFn: () => fetchSharedDatasets(query), placeholderData: keepPreviousData });
}

export function useMyDatasetsQuery(query: MyDatasetListQuery, enabled = true) {
  return useQuery({ queryKey: datasetKeys.mine(query), queryFn: () => fetchMyDatasets(query), placeholderData: keepPreviousData, enabled });
}

export function useFavoriteDatasetsQuery(query: PageQuery, enabled = true) {
  return useQuery({ queryKey: datasetKeys.favorites(query), queryFn: () => fetchFavoriteDatasets(query), placeholderData: keepPreviousData, enabled });
}

export function useDatasetFolderQuery(id: number, path: string, enabled = true) {
  return useQuery({ queryKey: datasetKeys.folder(id, path), queryFn: () => fetchDatasetFolder(id, path), enabled });
}

export function useMountableDatasetsQuery(enabled = true) {
  return useQuery({ queryKey: datasetKeys.mountable(), queryFn: fetchMountableDatasets, enabled });
}

/** At most this many shared datasets per instance (public ones are not counted: every machine has them). */
export const MOUNTABLE_MAX = DATASETS_PER_INSTANCE_MAX;
