/** 数据集: 公开数据集 with its files, 共享数据集 (广场, 收藏, 我的共享), the share dialog (also from 文件存储). */
import { DATASET_NAME_MESSAGE } from '@slg/shared';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatasetView } from '../../api/datasets';
import { setToastInstance, type ToastApi } from '../../api/toast';
import type { SubUserInfoDto } from '../../api/user';
import { useUserStore } from '../../stores/user';
import { buttonByText, buttonsByText, callsTo, findDialog, mockApi, ok, page, queryDialog, renderPage, type Handler } from '../ctrl-cost-center/testing';
import FileStoragePage from '../ctrl-file-storage/file-storage/index';
import PublicDataPage from './public-data/index';
import SharedDataPage from './shared-data/index';
import { CORPUS, dataset, GB2312, MNIST, STORE, ZONES } from './testing';

const toastOpen = vi.fn<ToastApi['open']>();
beforeEach(() => {
  toastOpen.mockReset();
  setToastInstance({ open: toastOpen, destroy: vi.fn() });
});
afterEach(() => {
  cleanup();
  useUserStore.getState().clear();
  vi.restoreAllMocks();
});

const toasts = () => toastOpen.mock.calls.map(([options]) => String((options as { content?: unknown }).content));
const bodyOf = (call: [string | URL | Request, RequestInit?] | undefined) => JSON.parse(String(call?.[1]?.body)) as unknown;
const queryOf = (call: [string | URL | Request, RequestInit?] | undefined) => Object.fromEntries(new URL(String(call?.[0]), 'http://x').searchParams);
const entry = (name: string, type: 'file' | 'dir', size = 0) => ({ name, type, size, modifiedAt: '2026-06-01T02:00:00Z' });

function card(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`article[aria-label="${name}"]`);
  if (!found) throw new Error(`no card ${name}`);
  return found;
}

describe('公开数据集', () => {
  it('lists the public datasets with their facts and mount path, and searches by name', async () => {
    const api = mockApi({ 'GET /public-data/list': () => page([GB2312]) });
    const { router } = renderPage(<PublicDataPage />, '/ctrl-data-set/data-set/public-data');
    await screen.findByText('gb2312-hanzi');
    const gb = card('gb2312-hanzi');
    expect(within(gb).getByText('GB 2312 的 6763 个汉字及其区位码')).toBeTruthy();
    expect(within(gb).getByText('汉字')).toBeTruthy();
    expect(within(gb).getByText('300 KB')).toBeTruthy();
    expect(within(gb).getByText('2 个')).toBeTruthy();
    expect(within(gb).getByText('Unicode-3.0')).toBeTruthy();
    expect(within(gb).getByText('/root/slg-pub/gb2312-hanzi')).toBeTruthy();
    expect(screen.getByText('共 1 个')).toBeTruthy();
    expect(queryOf(callsTo(api.fetchMock, 'GET', '/public-data/list')[0])).toEqual({ page: '1', pageSize: '10' });

    fireEvent.change(screen.getByLabelText('按名称搜索', { selector: 'input' }), { target: { value: ' primes ' } });
    fireEvent.keyDown(screen.getByLabelText('按名称搜索', { selector: 'input' }), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(queryOf(callsTo(api.fetchMock, 'GET', '/public-data/list').at(-1))).toEqual({ page: '1', pageSize: '10', name: 'primes' }));
    expect(router.state.location.search).toBe('?name=primes');
  });

  it('says so when there is none, and shows a failed load with 重试', async () => {
    let fail = true;
    mockApi({ 'GET /public-data/list': () => (fail ? new Response('{}', { status: 500 }) : page([])) });
    renderPage(<PublicDataPage />, '/ctrl-data-set/data-set/public-data');
    expect(await screen.findByText('公开数据集加载失败')).toBeTruthy();
    fail = false;
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('暂无公开数据集')).toBeTruthy();
  });

  it('浏览 lists the files of a dataset, opens its folders and downloads a file', async () => {
    const api = mockApi({
      'GET /public-data/list': () => page([GB2312]),
      'GET /datasets/1/files': (url) =>
        ok({ items: url.searchParams.get('path') === '/docs' ? [entry('README.md', 'file', 100)] : [entry('gb2312.csv', 'file', 300 * 1024), entry('docs', 'dir')] }),
      'POST /datasets/1/download-url': () => ok({ url: '/api/v1/storage/download?token=t1', expiresAt: '2026-11-29T00:05:00.000Z' }),
    });
    // The browser follows the signed link itself (its download manager, not the page's memory).
    const followed: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      followed.push(this.getAttribute('href') ?? '');
    });
    renderPage(<PublicDataPage />, '/ctrl-data-set/data-set/public-data');
    fireEvent.click(await screen.findByLabelText('浏览 gb2312-hanzi 的文件'));
    const drawer = await findDialog();
    expect(within(drawer).getByText('浏览「gb2312-hanzi」')).toBeTruthy();
    expect(await within(drawer).findByText('gb2312.csv')).toBeTruthy();
    expect(within(drawer).getByText('实例中只读挂载于 /root/slg-pub/gb2312-hanzi')).toBeTruthy();
    // Folders first.
    expect([...drawer.querySelectorAll('.slg-ds-entry')].map((row) => row.querySelector('.slg-ds-entry-name')?.textContent)).toEqual(['docs', 'gb2312.csv']);

    fireEvent.click(within(drawer).getByLabelText('打开文件夹 docs'));
    expect(await within(drawer).findByText('README.md')).toBeTruthy();
    expect(within(within(drawer).getByRole('navigation', { name: '文件夹路径' })).getByText('docs').getAttribute('aria-current')).toBe('location');
    fireEvent.click(within(drawer).getByLabelText('下载 README.md'));
    await waitFor(() => expect(followed).toEqual(['/api/v1/storage/download?token=t1']));
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/datasets/1/download-url')[0])).toEqual({ path: '/docs/README.md' });

    fireEvent.click(within(drawer).getByText('根目录'));
    expect(await within(drawer).findByText('gb2312.csv')).toBeTruthy();
  });
});

function sharedApi(extra: Record<string, Handler> = {}) {
  return mockApi({
    'GET /meta/zone': () => ok(ZONES),
    'GET /share-data/list': () => page([MNIST, CORPUS]),
    'GET /share-data/favorites': () => page([CORPUS]),
    'GET /share-data/list/me': () => page([]),
    'GET /storage/list': () => ok([STORE, { ...STORE, zoneId: 'sh-b', initialized: false }]),
    'GET /storage/files': (url) => ok({ items: url.searchParams.get('path') === '/data' ? [entry('mnist', 'dir'), entry('a.txt', 'file', 1)] : [entry('data', 'dir'), entry('b.txt', 'file', 1)] }),
    ...extra,
  });
}

describe('共享数据集', () => {
  it('共享广场 lists the approved datasets with their owner; the star favourites and unfavourites', async () => {
    const api = sharedApi({
      'POST /share-data/favorites/11': () => ok({ ...MNIST, favorited: true }),
      'DELETE /share-data/favorites/12': () => ok({ ...CORPUS, favorited: false }),
    });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data');
    await screen.findByText('mnist-images');
    const mnist = card('mnist-images');
    expect(within(mnist).getByText('小明')).toBeTruthy();
    expect(within(mnist).getByText('70,000 个')).toBeTruthy();
    expect(within(mnist).getByText('50 MB')).toBeTruthy();
    expect(within(mnist).getByText('3 人')).toBeTruthy();

    fireEvent.click(within(mnist).getByLabelText('收藏 mnist-images'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/share-data/favorites/11')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('已收藏，创建实例时可选择挂载'));
    // The lists are read again.
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/share-data/list').length).toBeGreaterThan(1));

    fireEvent.click(within(card('中文语料')).getByLabelText('取消收藏 中文语料'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/share-data/favorites/12')).toHaveLength(1));
  });

  it('filters 共享广场 by a tag of a card', async () => {
    const api = sharedApi();
    const { router } = renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data');
    await screen.findByText('mnist-images');
    fireEvent.click(within(card('mnist-images')).getByText('图像'));
    await waitFor(() => expect(queryOf(callsTo(api.fetchMock, 'GET', '/share-data/list').at(-1))).toEqual({ page: '1', pageSize: '10', tag: '图像' }));
    expect(router.state.location.search).toBe('?tag=%E5%9B%BE%E5%83%8F');
    fireEvent.click(buttonByText('标签：图像'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('我的收藏 lists the favourites; 取消收藏 takes one out', async () => {
    const api = sharedApi({ 'DELETE /share-data/favorites/12': () => ok({ ...CORPUS, favorited: false }) });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data?tab=favorites');
    await screen.findByText('中文语料');
    expect(screen.queryByText('mnist-images')).toBeNull();
    fireEvent.click(buttonByText('取消收藏', card('中文语料')));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/share-data/favorites/12')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('已取消收藏'));
  });

  it('我的共享 shows each status, the reason of a refusal and where it came from', async () => {
    const mine = [
      dataset({ id: 21, name: 'cifar', mine: true, status: 'IN_REVIEW', zoneId: 'bj-a', sourcePath: '/data/cifar' }),
      dataset({ id: 22, name: 'faces', mine: true, status: 'REJECTED', rejectReason: '包含个人肖像，无法公开', zoneId: 'bj-a', sourcePath: '/faces' }),
      dataset({ id: 23, name: 'words', mine: true, status: 'PASS', zoneId: 'bj-a', sourcePath: '/words' }),
    ];
    const api = sharedApi({ 'GET /share-data/list/me': () => page(mine) });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data?tab=mine');
    await screen.findByText('faces');
    expect(within(card('cifar')).getByText('审核中')).toBeTruthy();
    expect(within(card('faces')).getByText('未通过')).toBeTruthy();
    expect(within(card('faces')).getByText('未通过原因：包含个人肖像，无法公开')).toBeTruthy();
    expect(within(card('words')).getByText('已通过')).toBeTruthy();
    expect(within(card('cifar')).getByText('北京A区 · 文件存储 /data/cifar')).toBeTruthy();
    expect(queryOf(callsTo(api.fetchMock, 'GET', '/share-data/list/me')[0])).toEqual({ page: '1', pageSize: '10' });
  });

  it('删除 names what is lost, and deletes on confirm', async () => {
    const words = dataset({ id: 23, name: 'words', mine: true, status: 'PASS', zoneId: 'bj-a', sourcePath: '/words' });
    const api = sharedApi({ 'GET /share-data/list/me': () => page([words]), 'DELETE /share-data/23': () => ok(null) });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data?tab=mine');
    fireEvent.click(await screen.findByLabelText('删除 words'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('删除数据集「words」')).toBeTruthy();
    expect(within(dialog).getByText('删除后其他用户将无法再看到和使用该数据集，已挂载它的实例在下次关机后失去它。')).toBeTruthy();
    fireEvent.click(buttonByText('删除', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/share-data/23')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('数据集已删除'));
  });

  it('编辑 asks first: an edit sends it back to review; without 重新制作快照 the data stays', async () => {
    const words = dataset({ id: 23, name: 'words', description: '词表', tags: ['nlp'], mine: true, status: 'PASS', zoneId: 'bj-a', sourcePath: '/words' });
    const api = sharedApi({ 'GET /share-data/list/me': () => page([words]), 'PUT /share-data/23': () => ok({ ...words, status: 'IN_REVIEW' }) });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data?tab=mine');
    fireEvent.click(await screen.findByLabelText('编辑 words'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('编辑数据集「words」')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('描述'), { target: { value: '常用词表' } });
    fireEvent.click(buttonByText('保存', dialog));
    const confirm = await waitFor(() => {
      const shown = queryDialog();
      if (!shown || shown === dialog) throw new Error('no confirmation');
      return shown;
    });
    expect(within(confirm).getByText('保存后「words」将重新进入审核，审核通过前其他用户看不到、也不能挂载它；已挂载它的实例不受影响。')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'PUT', '/share-data/23')).toHaveLength(0);
    fireEvent.click(buttonByText('保存并提交审核', confirm));
    await waitFor(() => expect(callsTo(api.fetchMock, 'PUT', '/share-data/23')).toHaveLength(1));
    expect(bodyOf(callsTo(api.fetchMock, 'PUT', '/share-data/23')[0])).toEqual({ name: 'words', description: '常用词表', tags: ['nlp'] });
    await waitFor(() => expect(toasts()).toContain('已保存，数据集正在重新审核'));
  });

  it('共享数据集 checks the name, picks a folder of the store and says the dataset is under review', async () => {
    const api = sharedApi({ 'POST /share-data': () => ok({ id: 30 }) });
    const { router } = renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data');
    await screen.findByText('mnist-images');
    fireEvent.click(buttonByText('共享数据集'));
    const dialog = await findDialog();
    const name = await within(dialog).findByLabelText('名称');
    // Only the initialised region is offered, and chosen.
    expect(within(dialog).getByText('北京A区')).toBeTruthy();

    fireEvent.click(buttonByText('提交审核', dialog));
    expect(await within(dialog).findByText('请输入数据集名称')).toBeTruthy();
    fireEvent.change(name, { target: { value: '.hidden' } });
    expect(await within(dialog).findByText(DATASET_NAME_MESSAGE)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'a/b' } });
    expect(await within(dialog).findByText(DATASET_NAME_MESSAGE)).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/share-data')).toHaveLength(0);

    // The folder picker reads the store a level at a time; picking a folder names the dataset after it.
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.click(buttonByText('选择文件夹', dialog));
    fireEvent.click(await within(dialog).findByText('data'));
    expect((within(dialog).getByLabelText('文件夹') as HTMLInputElement).value).toBe('/data');
    expect((name as HTMLInputElement).value).toBe('data');
    expect(await within(dialog).findByText('也是实例中的文件夹名：/root/slg-pub/data')).toBeTruthy();

    fireEvent.change(name, { target: { value: ' 手写数字 ' } });
    fireEvent.change(within(dialog).getByLabelText('描述'), { target: { value: '手写数字图片' } });
    fireEvent.click(buttonByText('提交审核', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/share-data')).toHaveLength(1));
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/share-data')[0])).toEqual({ name: '手写数字', description: '手写数字图片', zoneId: 'bj-a', path: '/data' });
    await waitFor(() => expect(toasts()).toContain('已提交共享，数据集正在审核中，通过后其他用户即可看到和使用'));
    // 我的共享 shows it, under review.
    await waitFor(() => expect(router.state.location.search).toBe('?tab=mine'));
  });

  it('shows a duplicate name on its field', async () => {
    const api = sharedApi({
      'POST /share-data': () =>
        new Response(JSON.stringify({ rspcode: 40026, code: 40026, rspmsg: '名称已存在，请重新输入', result: null }), { status: 409, headers: { 'Content-Type': 'application/json' } }),
    });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data');
    fireEvent.click(buttonByText('共享数据集'));
    const dialog = await findDialog();
    fireEvent.change(await within(dialog).findByLabelText('名称'), { target: { value: 'mnist' } });
    fireEvent.change(within(dialog).getByLabelText('描述'), { target: { value: '图片' } });
    fireEvent.change(within(dialog).getByLabelText('文件夹'), { target: { value: '/data/mnist' } });
    fireEvent.click(buttonByText('提交审核', dialog));
    expect(await within(dialog).findByText('名称已存在，请重新输入')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/share-data')).toHaveLength(1);
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('without an initialised store, leads to 文件存储 instead', async () => {
    sharedApi({ 'GET /storage/list': () => ok([{ ...STORE, initialized: false }]) });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data');
    fireEvent.click(buttonByText('共享数据集'));
    const dialog = await findDialog();
    expect(await within(dialog).findByText(/还没有已初始化的文件存储/)).toBeTruthy();
    expect(within(dialog).getByText('去文件存储').closest('a')?.getAttribute('href')).toBe('/ctrl-file-storage/file-storage');
    expect(buttonByText('提交审核', dialog).disabled).toBe(true);
  });

  it('a sub-account without 文件存储 sees no 共享, 编辑 or 删除', async () => {
    const words = dataset({ id: 23, name: 'words', mine: true, status: 'PASS' });
    sharedApi({ 'GET /share-data/list/me': () => page([words]) });
    useUserStore.getState().setUserInfo({ kind: 'sub', info: { permissions: ['CONTAINER'] } as unknown as SubUserInfoDto });
    renderPage(<SharedDataPage />, '/ctrl-data-set/data-set/shared-data?tab=mine');
    await screen.findByText('words');
    expect(buttonsByText('共享数据集')).toHaveLength(0);
    expect(screen.queryByLabelText('编辑 words')).toBeNull();
    expect(screen.queryByLabelText('删除 words')).toBeNull();
    expect(screen.getByLabelText('浏览 words 的文件')).toBeTruthy();
    expect(screen.getByText('当前子账号没有文件存储权限，不能共享、编辑或删除数据集。')).toBeTruthy();
  });
});

describe('文件存储 › 共享', () => {
  it('opens the share dialog with the region and the folder filled in', async () => {
    const api = sharedApi({ 'POST /share-data': () => ok({ id: 31 }) });
    renderPage(<FileStoragePage />, '/ctrl-file-storage/file-storage');
    fireEvent.click(await screen.findByLabelText('共享 data 为数据集'));
    // Files are not offered.
    expect(screen.queryByLabelText('共享 b.txt 为数据集')).toBeNull();
    const dialog = await findDialog();
    expect((await within(dialog).findByLabelText('文件夹') as HTMLInputElement).value).toBe('/data');
    expect((within(dialog).getByLabelText('名称') as HTMLInputElement).value).toBe('data');
    fireEvent.change(within(dialog).getByLabelText('描述'), { target: { value: '数据' } });
    fireEvent.click(buttonByText('提交审核', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/share-data')).toHaveLength(1));
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/share-data')[0])).toEqual({ name: 'data', description: '数据', zoneId: 'bj-a', path: '/data' });
  });
});

export type { DatasetView };
