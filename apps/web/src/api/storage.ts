/**
 * 文件存储 (issue 22): one store per account and region, mounted at /root/slg-fs in the region's
 * instances. Uploads go through the tus endpoint (the page's own chunk holds the tus client);
 * everything else is a plain call of the API client.
 */
import { ErrorCodes } from '@slg/shared';
import type { FileStorageView, StorageListingView } from '@slg/shared/views/storage';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { API_BASE, isApiError, request } from './client';
import type { DownloadLink } from './download';
import { queryKeys } from './queryKeys';

export type { FileStorageView, StorageEntryView, StorageListingView } from '@slg/shared/views/storage';

/** The tus endpoint of uploads (metadata: zoneId, path of the target folder, filename). */
export const STORAGE_TUS_ENDPOINT = `${API_BASE}/storage/tus`;

export const storageKeys = {
  all: queryKeys.storage,
  /** Every enabled region's store. */
  list: () => [...queryKeys.storage, 'list'] as const,
  /** The listings of one region (all folders). */
  files: (zoneId: string) => [...queryKeys.storage, 'files', zoneId] as const,
  /** A whole folder (unpaged), and under it (the same prefix) its pages. */
  folder: (zoneId: string, path: string) => [...queryKeys.storage, 'files', zoneId, path] as const,
  /** One page of a folder, optionally only names containing `name`. */
  folderPage: (zoneId: string, path: string, paging: FolderPaging) =>
    [...queryKeys.storage, 'files', zoneId, path, { page: paging.page, pageSize: paging.pageSize, name: nameFilterOf(paging) }] as const,
};

/** A page of a folder listing (`GET /storage/files` with `page`/`pageSize`; the server's default page size is LISTING_DEFAULT_PAGE_SIZE). */
export interface FolderPaging {
  page: number;
  pageSize: number;
  /** Only names containing it, any case (trimmed; empty means all). */
  name?: string;
}

/** A paged listing: only that page's entries, already in the file manager's order, and how many there are in all. */
export type StorageListingPage = Omit<StorageListingView, 'total' | 'page' | 'pageSize'> & { total: number; page: number; pageSize: number };

function nameFilterOf(paging: FolderPaging): string | undefined {
  return paging.name?.trim() || undefined;
}

export function fetchStorageList(): Promise<FileStorageView[]> {
  return request<FileStorageView[]>({ url: '/storage/list' });
}

export function fetchStorage(zoneId: string): Promise<FileStorageView> {
  return request<FileStorageView>({ url: '/storage', params: { zoneId } });
}

export function initStorage(zoneId: string): Promise<FileStorageView> {
  return request<FileStorageView>({ method: 'POST', url: '/storage/init', data: { zoneId } });
}

export function setStorageQuota(input: { zoneId: string; quotaGb: number }): Promise<FileStorageView> {
  return request<FileStorageView>({ method: 'PUT', url: '/storage/quota', data: input });
}

/** A whole folder (up to 10,000 entries, `truncated` beyond); with `paging`, only that page (see `fetchFolderPage`). */
export function fetchFolder(zoneId: string, path: string, paging?: FolderPaging): Promise<StorageListingView> {
  const params = paging ? { zoneId, path, page: paging.page, pageSize: paging.pageSize, name: nameFilterOf(paging) } : { zoneId, path };
  return request<StorageListingView>({ url: '/storage/files', params });
}

/** One page of a folder, sorted and filtered by the server. */
export async function fetchFolderPage(zoneId: string, path: string, paging: FolderPaging): Promise<StorageListingPage> {
  const listing = await fetchFolder(zoneId, path, paging);
  return { ...listing, total: listing.total ?? listing.items.length, page: listing.page ?? paging.page, pageSize: listing.pageSize ?? paging.pageSize };
}

export function createFolder(input: { zoneId: string; path: string }): Promise<unknown> {
  return request<unknown>({ method: 'POST', url: '/storage/dir', data: input });
}

export function renameEntry(input: { zoneId: string; from: string; to: string }): Promise<unknown> {
  return request<unknown>({ method: 'PUT', url: '/storage/rename', data: input });
}

export function deleteEntry(input: { zoneId: string; path: string }): Promise<unknown> {
  return request<unknown>({ method: 'DELETE', url: '/storage/files', params: input });
}

/** A signed download link to a file of the store (the browser downloads it itself; valid a few minutes). */
export function fileDownloadLink(input: { zoneId: string; path: string }): Promise<DownloadLink> {
  return request<DownloadLink>({ method: 'POST', url: '/storage/download-url', data: input });
}

/** Whether a refusal is about the name the form sent (40026 duplicate, a 409 or a 400). */
export function isEntryNameError(error: unknown): boolean {
  return isApiError(error) && (error.code === ErrorCodes.NAME_EXISTS.code || error.status === 400 || error.status === 409);
}

export function useStorageListQuery() {
  return useQuery({ queryKey: storageKeys.list(), queryFn: fetchStorageList });
}

/** A whole folder (the dataset dialogs' folder pickers). */
export function useFolderQuery(zoneId: string, path: string, enabled: boolean) {
  return useQuery({ queryKey: storageKeys.folder(zoneId, path), queryFn: () => fetchFolder(zoneId, path), enabled });
}

/** One page of a folder (the file manager); the previous page stays on show while the next one loads. */
export function useFolderPageQuery(zoneId: string, path: string, paging: FolderPaging, enabled = true) {
  return useQuery({
    queryKey: storageKeys.folderPage(zoneId, path, paging),
    queryFn: () => fetchFolderPage(zoneId, path, paging),
    placeholderData: keepPreviousData,
    enabled,
  });
}
