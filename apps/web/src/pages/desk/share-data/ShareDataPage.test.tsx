/** 共享数据 (`/share-data`): the approved shared datasets for anyone; 收藏 leads a visitor through the sign-in. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUserStore } from '../../../stores/user';
import { callsTo, mockApi, ok, page, renderPage } from '../../ctrl-cost-center/testing';
import { CORPUS, MNIST } from '../../ctrl-data-set/testing';
import ShareDataPage from './index';

afterEach(() => {
  cleanup();
  useUserStore.getState().clear();
});

const card = (name: string) => document.querySelector<HTMLElement>(`article[aria-label="${name}"]`) as HTMLElement;
const queryOf = (input: unknown) => Object.fromEntries(new URL(String(input), 'http://x').searchParams);

describe('共享数据', () => {
  it('lists the shared datasets with description, tags, size and owner, and searches them', async () => {
    const api = mockApi({ 'GET /share-data/list': () => page([MNIST, CORPUS], 12) });
    useUserStore.getState().clear();
    const { router } = renderPage(<ShareDataPage />, '/share-data');
    await screen.findByText('mnist-images');
    const mnist = card('mnist-images');
    expect(within(mnist).getByText('手写数字图片')).toBeTruthy();
    expect(within(mnist).getByText('图像')).toBeTruthy();
    expect(within(mnist).getByText('50 MB')).toBeTruthy();
    expect(within(mnist).getByText('小明')).toBeTruthy();
    expect(within(card('中文语料')).getByText('138****0000')).toBeTruthy();
    expect(screen.getByText('共 12 个')).toBeTruthy();

    const search = screen.getByLabelText('搜索共享数据集', { selector: 'input' });
    fireEvent.change(search, { target: { value: '语料' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(queryOf(callsTo(api.fetchMock, 'GET', '/share-data/list').at(-1)?.[0])).toEqual({ page: '1', pageSize: '10', name: '语料' }));
    expect(router.state.location.search).toBe('?name=%E8%AF%AD%E6%96%99');
  });

  it('收藏 leads a visitor to the sign-in, back here afterwards', async () => {
    const api = mockApi({ 'GET /share-data/list': () => page([MNIST]) });
    useUserStore.getState().clear();
    const { router } = renderPage(<ShareDataPage />, '/share-data?page=2');
    const favorite = await screen.findByLabelText('收藏 mnist-images');
    expect(favorite.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent('/share-data?page=2')}`);
    fireEvent.click(favorite);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(callsTo(api.fetchMock, 'POST', '/share-data/favorites/11')).toHaveLength(0);
  });

  it('signed in, 收藏 favourites the dataset', async () => {
    const api = mockApi({ 'GET /share-data/list': () => page([MNIST]), 'POST /share-data/favorites/11': () => ok({ ...MNIST, favorited: true }) });
    renderPage(<ShareDataPage />, '/share-data');
    fireEvent.click(await screen.findByLabelText('收藏 mnist-images'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/share-data/favorites/11')).toHaveLength(1));
  });
});
