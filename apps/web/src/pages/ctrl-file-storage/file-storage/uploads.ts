/**
 * The uploads of 文件存储: resumable (tus) uploads with pause, resume and cancel. The list lives at
 * module level in the page's chunk, so uploads go on while the user visits another console page and
 * show again on return. tus-js-client is imported here only, so it loads with this page.
 */
import { Upload, type DetailedError, type HttpRequest } from 'tus-js-client';
import { create } from 'zustand';
import { request } from '../../../api/client';
import { STORAGE_TUS_ENDPOINT } from '../../../api/storage';
import { useUserStore } from '../../../stores/user';
import { FILE_STORAGE_TEXTS } from './texts';

const T = FILE_STORAGE_TEXTS.uploads;

export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'failed';

export interface UploadItem {
  id: string;
  zoneId: string;
  zoneName: string;
  /** The target folder, e.g. `/data`. */
  folder: string;
  name: string;
  size: number;
  sent: number;
  status: UploadStatus;
  /** What went wrong (the server's message when it gave one). */
  error: string | null;
}

/** Files uploading at once; the others wait in the queue. */
export const MAX_ACTIVE_UPLOADS = 3;
/** Bytes per PATCH request: a paused or broken upload resumes from the last whole chunk at worst. */
export const DEFAULT_CHUNK_SIZE = 16 * 1024 * 1024;
/** Waits before each automatic retry of a failed request (network errors, 5xx, 409/423). */
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000];

/** The chunk size; the end-to-end test sets `window.__SLG_TUS_CHUNK_SIZE__` to make pausing observable. */
function chunkSize(): number {
  const override = (globalThis as { __SLG_TUS_CHUNK_SIZE__?: unknown }).__SLG_TUS_CHUNK_SIZE__;
  return typeof override === 'number' && override > 0 ? override : DEFAULT_CHUNK_SIZE;
}

interface UploadStore {
  items: UploadItem[];
}

export const useUploadStore = create<UploadStore>(() => ({ items: [] }));

interface Running {
  file: File;
  upload: Upload | null;
  /** Called once the file is stored (the page refreshes the folder and the usage). */
  onDone: () => void;
}

const running = new Map<string, Running>();
let nextId = 1;

function patch(id: string, change: Partial<UploadItem>): void {
  useUploadStore.setState((state) => ({ items: state.items.map((item) => (item.id === id ? { ...item, ...change } : item)) }));
}

function itemOf(id: string): UploadItem | undefined {
  return useUploadStore.getState().items.find((item) => item.id === id);
}

/** The message of a refused or failed request: the server's own text when its body has one. */
export function uploadErrorMessage(error: Error | DetailedError): string {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) return T.networkError;
  const status = response.getStatus();
  const body = response.getBody();
  if (body) {
    try {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      for (const key of ['rspmsg', 'msg', 'message']) {
        const value = parsed[key];
        if (typeof value === 'string' && value && value !== 'success') return value;
      }
    } catch {
      // Not JSON: a short plain-text answer is the message.
      const text = body.trim();
      if (text && text.length <= 200 && !text.startsWith('<')) return text;
    }
  }
  if (status === 413) return T.tooLarge;
  if (status === 0) return T.networkError;
  return T.unknownError;
}

function statusOf(error: DetailedError): number {
  return error.originalResponse?.getStatus() ?? 0;
}

/** Makes the API client refresh the session (it does on a 401), so the next tus request carries a valid token. */
function refreshSession(): void {
  void request({ url: '/storage/list', silent: true }).catch(() => undefined);
}

function createUpload(item: UploadItem, entry: Running): Upload {
  const userId = useUserStore.getState().userInfo?.info.userId ?? '';
  return new Upload(entry.file, {
    endpoint: STORAGE_TUS_ENDPOINT,
    chunkSize: chunkSize(),
    retryDelays: RETRY_DELAYS,
    metadata: { zoneId: item.zoneId, path: item.folder, filename: item.name },
    // One upload per account, region, folder and file: choosing the same file again resumes it.
    fingerprint: (file: File) =>
      Promise.resolve(['slg-fs', userId, item.zoneId, item.folder, file.name, file.size, file.lastModified].join(':')),
    removeFingerprintOnSuccess: true,
    onBeforeRequest: (req: HttpRequest) => {
      const token = useUserStore.getState().token;
      if (token) req.setHeader('Authorization', `Bearer ${token}`);
    },
    onShouldRetry: (error: DetailedError, attempt: number) => {
      const status = statusOf(error);
      if (status === 401 && attempt < 2) {
        refreshSession();
        return true;
      }
      // The request was refused (quota, name, arrears): trying again would not change the answer.
      if (status >= 400 && status < 500 && status !== 409 && status !== 423) return false;
      return true;
    },
    onProgress: (sent: number) => {
      if (itemOf(item.id)?.status === 'uploading') patch(item.id, { sent });
    },
    onSuccess: () => {
      patch(item.id, { status: 'done', sent: item.size, error: null });
      running.delete(item.id);
      entry.onDone();
      pump();
    },
    onError: (error: Error | DetailedError) => {
      // A pause aborts the request on purpose; only a real failure lands here.
      if (itemOf(item.id)?.status !== 'uploading') return;
      patch(item.id, { status: 'failed', error: uploadErrorMessage(error) });
      pump();
    },
  });
}

function startItem(item: UploadItem): void {
  const entry = running.get(item.id);
  if (!entry) return;
  patch(item.id, { status: 'uploading', error: null });
  if (entry.upload) {
    // Resumes from the offset the server has (a HEAD request first).
    entry.upload.start();
    return;
  }
  const upload = createUpload(item, entry);
  entry.upload = upload;
  void upload
    .findPreviousUploads()
    .then((previous) => {
      const last = previous.sort((a, b) => (a.creationTime < b.creationTime ? 1 : -1))[0];
      if (last) upload.resumeFromPreviousUpload(last);
    })
    .catch(() => undefined)
    .finally(() => {
      if (itemOf(item.id)?.status === 'uploading') upload.start();
    });
}

/** Starts queued uploads while fewer than MAX_ACTIVE_UPLOADS run. */
function pump(): void {
  const items = useUploadStore.getState().items;
  let active = items.filter((item) => item.status === 'uploading').length;
  for (const item of items) {
    if (active >= MAX_ACTIVE_UPLOADS) break;
    if (item.status !== 'queued') continue;
    startItem(item);
    active += 1;
  }
}

/** Adds files to upload into a folder of a region's store. */
export function addUploads(files: readonly File[], target: { zoneId: string; zoneName: string; folder: string }, onDone: () => void): void {
  const added: UploadItem[] = files.map((file) => {
    const id = `upload-${nextId++}`;
    running.set(id, { file, upload: null, onDone });
    return { id, ...target, name: file.name, size: file.size, sent: 0, status: 'queued', error: null };
  });
  useUploadStore.setState((state) => ({ items: [...state.items, ...added] }));
  pump();
}

export function pauseUpload(id: string): void {
  const item = itemOf(id);
  if (!item || (item.status !== 'uploading' && item.status !== 'queued')) return;
  patch(id, { status: 'paused' });
  void running.get(id)?.upload?.abort();
  pump();
}

/** 继续 / 重试: back in the queue, from where the server left off. */
export function resumeUpload(id: string): void {
  const item = itemOf(id);
  if (!item || (item.status !== 'paused' && item.status !== 'failed')) return;
  patch(id, { status: 'queued', error: null });
  pump();
}

/** 取消: stops the upload, drops what the server received, and leaves the list. */
export function cancelUpload(id: string): void {
  const entry = running.get(id);
  running.delete(id);
  useUploadStore.setState((state) => ({ items: state.items.filter((item) => item.id !== id) }));
  if (entry?.upload?.url) void entry.upload.abort(true).catch(() => undefined);
  else void entry?.upload?.abort();
  pump();
}

/** Takes a finished upload off the list. */
export function removeUpload(id: string): void {
  running.delete(id);
  useUploadStore.setState((state) => ({ items: state.items.filter((item) => item.id !== id) }));
}

export function clearFinishedUploads(): void {
  useUploadStore.setState((state) => ({ items: state.items.filter((item) => item.status !== 'done') }));
}

/** Whether an upload is under way or waiting (leaving the page would cut it). */
export function hasUnfinishedUploads(items: readonly UploadItem[]): boolean {
  return items.some((item) => item.status === 'uploading' || item.status === 'queued');
}

/** Signing out stops every upload: the next account must not see or continue them. */
useUserStore.subscribe((state, previous) => {
  if (previous.token && !state.token) {
    for (const entry of running.values()) void entry.upload?.abort();
    running.clear();
    useUploadStore.setState({ items: [] });
  }
});
