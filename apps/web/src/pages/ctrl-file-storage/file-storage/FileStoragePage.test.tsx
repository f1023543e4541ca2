/** 文件存储: initialise a region, browse folders, delete with a named confirmation, the quota's limits, arrears, uploads (tus mocked). */
import { FILE_STORAGE_GB_BYTES, LISTING_DEFAULT_PAGE_SIZE } from '@slg/shared';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileStorageView, StorageEntryView } from '../../../api/storage';
import { buttonByText, callsTo, findDialog, linksByText, mockApi, ok, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { sortEntries } from './files';
import FileStoragePage from './index';
import { useUploadStore } from './uploads';

interface FakeUpload {
  file: File;
  options: {
    metadata: Record<string, string>;
    onProgress: (sent: number, total: number) => void;
    onSuccess: () => void;
    onError: (error: Error) => void;
  };
  start: ReturnType<typeof vi.fn>;
  abort: ReturnType<typeof vi.fn>;
}

const tus = vi.hoisted(() => ({ uploads: [] as FakeUpload[] }));

vi.mock('tus-js-client', () => ({
  Upload: class {
    url: string | null = null;
    start = vi.fn();
    abort = vi.fn(() => Promise.resolve());
    findPreviousUploads = vi.fn(() => Promise.resolve([]));
    resumeFromPreviousUpload = vi.fn();
    constructor(
      public file: File,
      public options: FakeUpload['options'],
    ) {
      tus.uploads.push(this as unknown as FakeUpload);
    }
  },
}));

afterEach(() => {
  cleanup();
  tus.uploads.length = 0;
  useUploadStore.setState({ items: [] });
});

const GB = FILE_STORAGE_GB_BYTES;
const ZONES = [
  { id: 'bj-a', name: '北京A区', region: '华北', description: '' },
  { id: 'sh-b', name: '上海B区', region: '华东', description: '' },
];
const BJ: FileStorageView = {
  zoneId: 'bj-a',
  initialized: true,
  usedBytes: Math.round(12.3 * GB),
  quotaBytes: 200 * GB,
  freeBytes: 20 * GB,
  priceFenPerGbDay: 1,
  mountPath: '/root/slg-fs',
  writesBlocked: false,
};
const SH: FileStorageView = { ...BJ, zoneId: 'sh-b', initialized: false, usedBytes: 0, quotaBytes: 0 };

const entry = (name: string, type: 'file' | 'dir', size = 0): StorageEntryView => ({ name, type, size, modifiedAt: '2026-06-01T02:00:00Z' });
const ROOT_ITEMS = [entry('notes.txt', 'file', 1536), entry('models', 'dir'), entry('a.bin', 'file', 5 * 1024 * 1024), entry('data', 'dir')];
const DATA_ITEMS = [entry('train.csv', 'file', 2048)];

/**
 * A folder as `GET /storage/files` answers it: with page or pageSize one page (sorted, optionally only names
 * containing `name`, any case) and the total; without, the whole folder.
 */
function listing(items: readonly StorageEntryView[], url: URL) {
  const params = url.searchParams;
  if (!params.has('page') && !params.has('pageSize')) return ok({ items });
  const page = Number(params.get('page') ?? 1);
  const pageSize = Number(params.get('pageSize') ?? LISTING_DEFAULT_PAGE_SIZE);
  const needle = (params.get('name') ?? '').trim().toLowerCase();
  const matching = sortEntries(items).filter((item) => item.name.toLowerCase().includes(needle));
  return ok({ items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageSize });
}

function storageApi(stores: FileStorageView[], extra: Record<string, Handler> = {}) {
  return mockApi({
    'GET /meta/zone': () => ok(ZONES),
    'GET /storage/list': () => ok(stores),
    'GET /storage/files': (url) => listing(url.searchParams.get('path') === '/data' ? DATA_ITEMS : ROOT_ITEMS, url),
    ...extra,
  });
}

/** The query of each listing request, in order. */
function listingRequests(fetchMock: ReturnType<typeof mockApi>['fetchMock']): Record<string, string>[] {
  return callsTo(fetchMock, 'GET', '/storage/files').map(([input]) => Object.fromEntries(new URL(String(input), 'http://x').searchParams));
}

const files = (count: number) => Array.from({ length: count }, (_, index) => entry(`file${index + 1}.txt`, 'file', 100));

function namesInTable(): string[] {
  return [...document.querySelectorAll('.ant-table-tbody tr[data-row-key]')].map((row) => row.querySelector('.slg-fs-name')?.textContent ?? '');
}

describe('文件存储', () => {
  it('explains an uninitialised region (free, price, mount) and 免费初始化 initialises it', async () => {
    let stores = [SH];
    const api = storageApi([], {
      'GET /storage/list': () => ok(stores),
      'POST /storage/init': () => {
        stores = [{ ...SH, initialized: true, quotaBytes: 200 * GB }];
        return ok(stores[0]);
      },
    });
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    const panel = await screen.findByRole('region', { name: '上海B区尚未初始化文件存储' });
    expect(within(panel).getByText('每个地区免费 20 GB，超出部分按 ¥0.01/GB/天 计费')).toBeTruthy();
    expect(within(panel).getByText('初始化后，该地区的所有实例都能在 /root/slg-fs 访问这些文件')).toBeTruthy();
    expect(within(panel).getByText('初始化免费，不产生费用')).toBeTruthy();

    fireEvent.click(buttonByText('免费初始化'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/storage/init')).toHaveLength(1));
    const [, init] = callsTo(api.fetchMock, 'POST', '/storage/init')[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ zoneId: 'sh-b' });
    expect(await screen.findByText('已用 0 B / 配额 200 GB')).toBeTruthy();
    expect(screen.getByText('已初始化')).toBeTruthy();
  });

  it('shows the usage against the quota with the free mark, and lists folders first', async () => {
    storageApi([BJ, SH]);
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    expect(await screen.findByText('已用 12.3 GB / 配额 200 GB')).toBeTruthy();
    expect(screen.getByText('免费 20 GB，超出部分 ¥0.01/GB/天')).toBeTruthy();
    expect(screen.getByRole('meter', { name: '存储用量' }).getAttribute('aria-valuetext')).toBe('已用 12.3 GB，配额 200 GB，免费 20 GB');
    await screen.findByText('notes.txt');
    expect(namesInTable()).toEqual(['data', 'models', 'a.bin', 'notes.txt']);
    expect(screen.getByText('1.5 KB')).toBeTruthy();
    expect(screen.getByText('5 MB')).toBeTruthy();
    expect(screen.getByText('共 4 项')).toBeTruthy();
    expect(screen.queryByText(/条目太多/)).toBeNull();
  });

  it('asks the server for one page, shows it as it comes and pages by its total', async () => {
    // The server's order is the order on show (no sorting in the console).
    const api = storageApi([BJ], {
      'GET /storage/files': (url) => {
        const page = Number(url.searchParams.get('page'));
        const names = page === 1 ? ['zeta', 'alpha'] : ['page2.txt'];
        return ok({ items: names.map((name) => entry(name, 'file', 10)), total: 250, page, pageSize: Number(url.searchParams.get('pageSize')) });
      },
    });
    const { router } = renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    await screen.findByText('zeta');
    expect(namesInTable()).toEqual(['zeta', 'alpha']);
    expect(listingRequests(api.fetchMock)).toEqual([{ zoneId: 'bj-a', path: '/', page: '1', pageSize: '100' }]);
    expect(screen.getByText('共 250 项')).toBeTruthy();
    expect(document.querySelector('.ant-pagination-item-3')).toBeTruthy();
    expect(document.querySelector('.ant-pagination-item-4')).toBeNull();

    fireEvent.click(document.querySelector('.ant-pagination-item-2')!);
    expect(await screen.findByText('page2.txt')).toBeTruthy();
    expect(router.state.location.search).toBe('?zone=bj-a&page=2');
    expect(listingRequests(api.fetchMock).at(-1)).toEqual({ zoneId: 'bj-a', path: '/', page: '2', pageSize: '100' });
    expect(screen.queryByText('zeta')).toBeNull();
  });

  it('filters on the server once the typing stops, from page 1', async () => {
    const api = storageApi([BJ], { 'GET /storage/files': (url) => listing([...files(25), entry('Report.PDF', 'file', 1), entry('reports', 'dir')], url) });
    const { router } = renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage?zone=bj-a&page=2&size=10');
    await screen.findByText('file18.txt');
    expect(screen.getByText('共 27 项')).toBeTruthy();

    const search = screen.getByLabelText('在当前文件夹中搜索');
    fireEvent.change(search, { target: { value: 'r' } });
    fireEvent.change(search, { target: { value: 'rep' } });
    fireEvent.change(search, { target: { value: ' REP ' } });
    expect(await screen.findByText('Report.PDF')).toBeTruthy();
    expect(namesInTable()).toEqual(['reports', 'Report.PDF']);
    expect(screen.getByText('共 2 项')).toBeTruthy();
    expect(router.state.location.search).toBe('?zone=bj-a&size=10');
    // One request for the filter (trimmed), of page 1; none per key.
    const filtered = listingRequests(api.fetchMock).filter((query) => 'name' in query);
    expect(filtered).toEqual([{ zoneId: 'bj-a', path: '/', page: '1', pageSize: '10', name: 'REP' }]);

    fireEvent.change(search, { target: { value: 'nothing' } });
    expect(await screen.findByText('没有名称匹配的文件')).toBeTruthy();
    expect(document.querySelector('.ant-pagination')).toBeNull();

    // Emptied, the filter asks for the whole folder again (no name).
    fireEvent.change(search, { target: { value: '' } });
    expect(await screen.findByText('file1.txt')).toBeTruthy();
    expect(listingRequests(api.fetchMock).at(-1)).toEqual({ zoneId: 'bj-a', path: '/', page: '1', pageSize: '10' });
  });

  it('goes to the last page when the page asked for is beyond it', async () => {
    const api = storageApi([BJ], { 'GET /storage/files': (url) => listing(files(13), url) });
    const { router } = renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage?zone=bj-a&page=5&size=10');
    expect(await screen.findByText('file13.txt')).toBeTruthy();
    expect(router.state.location.search).toBe('?zone=bj-a&page=2&size=10');
    expect(namesInTable()).toEqual(['file11.txt', 'file12.txt', 'file13.txt']);
    expect(listingRequests(api.fetchMock).map((query) => query.page)).toEqual(['5', '2']);
    expect(screen.queryByText('这个文件夹是空的')).toBeNull();
  });

  it('opens a folder and goes back up through the breadcrumb', async () => {
    const api = storageApi([BJ]);
    const { router } = renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    await screen.findByText('notes.txt');
    fireEvent.click(screen.getByLabelText('打开文件夹 data'));
    expect(await screen.findByText('train.csv')).toBeTruthy();
    expect(router.state.location.search).toBe('?zone=bj-a&path=%2Fdata');
    expect(callsTo(api.fetchMock, 'GET', '/storage/files').some(([input]) => new URL(String(input), 'http://x').searchParams.get('path') === '/data')).toBe(true);
    const crumbs = screen.getByRole('navigation', { name: '文件夹路径' });
    expect(within(crumbs).getByText('data').getAttribute('aria-current')).toBe('location');

    fireEvent.click(linksByText('根目录', crumbs)[0]!);
    expect(await screen.findByText('notes.txt')).toBeTruthy();
    expect(router.state.location.search).toBe('?zone=bj-a');
  });

  it('names what a delete loses, and deletes the path on confirm', async () => {
    const api = storageApi([BJ], { 'DELETE /storage/files': () => ok(null) });
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    await screen.findByText('notes.txt');

    fireEvent.click(screen.getByLabelText('删除 notes.txt'));
    let dialog = await findDialog();
    expect(within(dialog).getByText('删除文件「notes.txt」（1.5 KB），无法恢复。')).toBeTruthy();
    fireEvent.click(buttonByText('再想想', dialog));
    expect(callsTo(api.fetchMock, 'DELETE', '/storage/files')).toHaveLength(0);

    fireEvent.click(screen.getByLabelText('删除 data'));
    dialog = await findDialog();
    expect(within(dialog).getByText('删除文件夹「data」及其中全部文件，无法恢复。')).toBeTruthy();
    fireEvent.click(buttonByText('删除', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/storage/files')).toHaveLength(1));
    const url = new URL(String(callsTo(api.fetchMock, 'DELETE', '/storage/files')[0]![0]), 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({ zoneId: 'bj-a', path: '/data' });
    // The listing and the usage are read again.
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/storage/files').length).toBeGreaterThan(1));
  });

  it('修改配额 takes a whole number from 1 to 2048 GB', async () => {
    const api = storageApi([BJ], { 'PUT /storage/quota': () => ok({ ...BJ, quotaBytes: 500 * GB }) });
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    fireEvent.click(await screen.findByText('修改配额', { selector: 'button *' }));
    const dialog = await findDialog();
    const input = within(dialog).getByLabelText('配额');
    expect((input as HTMLInputElement).value).toBe('200');

    for (const [value, message] of [
      ['0', '配额为 1–2048 之间的整数（GB）'],
      ['3000', '配额为 1–2048 之间的整数（GB）'],
      ['10', '配额不能小于已用容量 12.3 GB'],
    ] as const) {
      fireEvent.change(input, { target: { value } });
      fireEvent.click(buttonByText('保存配额'));
      expect(await within(dialog).findByText(message)).toBeTruthy();
    }
    expect(callsTo(api.fetchMock, 'PUT', '/storage/quota')).toHaveLength(0);

    fireEvent.change(input, { target: { value: '500' } });
    fireEvent.click(buttonByText('保存配额'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'PUT', '/storage/quota')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'PUT', '/storage/quota')[0]![1]?.body))).toEqual({ zoneId: 'bj-a', quotaGb: 500 });
  });

  it('in arrears: 欠费已禁止写入 with 去充值, and no upload, new folder or rename', async () => {
    storageApi([{ ...BJ, writesBlocked: true }]);
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('欠费已禁止写入')).toBeTruthy();
    expect(linksByText('去充值', alert)[0]?.getAttribute('href')).toBe('/ctrl-cost-center/cost-center/recharge');
    await screen.findByText('notes.txt');
    expect(buttonByText('上传文件').disabled).toBe(true);
    expect(buttonByText('新建文件夹').disabled).toBe(true);
    expect((screen.getByLabelText('重命名 notes.txt') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText('下载 notes.txt') as HTMLButtonElement).disabled).toBe(false);
  });

  it('新建文件夹 checks the name and creates the folder in the current one', async () => {
    const api = storageApi([BJ], { 'POST /storage/dir': () => ok(null) });
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage?zone=bj-a&path=%2Fdata');
    await screen.findByText('train.csv');
    fireEvent.click(buttonByText('新建文件夹'));
    const dialog = await findDialog();
    const input = within(dialog).getByLabelText('文件夹名称');
    fireEvent.change(input, { target: { value: 'a/b' } });
    fireEvent.click(buttonByText('新建', dialog));
    expect(await within(dialog).findByText('名称不能包含 / ，也不能是 . 或 ..')).toBeTruthy();
    fireEvent.change(input, { target: { value: ' runs ' } });
    fireEvent.click(buttonByText('新建', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/storage/dir')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/storage/dir')[0]![1]?.body))).toEqual({ zoneId: 'bj-a', path: '/data/runs' });
  });

  it('uploads files into the current folder with progress, 暂停 and 继续, and refreshes the listing when done', async () => {
    const api = storageApi([BJ]);
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    await screen.findByText('notes.txt');
    const input = screen.getByTestId('slg-fs-file-input');
    const files = [new File(['hello'], 'a.txt'), new File(['world!'], 'b.txt')];
    fireEvent.change(input, { target: { files } });

    await waitFor(() => expect(tus.uploads).toHaveLength(2));
    const [first] = tus.uploads;
    expect(first!.options.metadata).toEqual({ zoneId: 'bj-a', path: '/', filename: 'a.txt' });
    await waitFor(() => expect(first!.start).toHaveBeenCalledTimes(1));
    const panel = screen.getByRole('list', { name: '上传列表' });
    act(() => first!.options.onProgress(2, 5));
    expect(within(panel).getByText('上传中 · 2 B / 5 B')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('暂停上传 a.txt'));
    expect(first!.abort).toHaveBeenCalled();
    expect(within(panel).getByText('已暂停 · 2 B / 5 B')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('继续上传 a.txt'));
    expect(first!.start).toHaveBeenCalledTimes(2);

    const listed = callsTo(api.fetchMock, 'GET', '/storage/files').length;
    act(() => first!.options.onSuccess());
    expect(within(panel).getByText('已完成 · 5 B / 5 B')).toBeTruthy();
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/storage/files').length).toBeGreaterThan(listed));

    // A refusal of the server shows once, in the row.
    const second = tus.uploads[1]!;
    const refusal = Object.assign(new Error('tus: unexpected response'), {
      originalResponse: { getStatus: () => 413, getBody: () => JSON.stringify({ rspcode: 41300, rspmsg: '超出配额：剩余 1 GB' }) },
    });
    act(() => second.options.onError(refusal));
    expect(within(panel).getByRole('alert').textContent).toBe('超出配额：剩余 1 GB');
    expect(api.notify).not.toHaveBeenCalled();
  });
});

describe('文件存储 on a phone', () => {
  const jsdomMatchMedia = window.matchMedia;
  afterEach(() => {
    window.matchMedia = jsdomMatchMedia;
  });

  it('shows entries as cards with their actions, a page at a time', async () => {
    window.matchMedia = (query: string) => ({ ...jsdomMatchMedia(query), matches: query.includes('max-width') });
    const many = files(12);
    storageApi([BJ], { 'GET /storage/files': (url) => listing([...many, entry('data', 'dir')], url) });
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage?zone=bj-a&size=10');
    await screen.findByText('file1.txt');
    expect(document.querySelector('.ant-table')).toBeNull();
    const cards = screen.getAllByRole('listitem').filter((item) => item.classList.contains('slg-fs-card'));
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['data', ...many.slice(0, 9).map((item) => item.name)]);
    expect(within(cards[1]!).getByLabelText('下载 file1.txt')).toBeTruthy();
    expect(screen.getByText('共 13 项')).toBeTruthy();
  });
});
