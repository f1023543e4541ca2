import { focusManager } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../api/notifications';
import { absoluteTime, relativeTime } from '../components/notifications/NotificationPanel';
import { callsTo, failure, mockApi, ok, pending, renderPage } from '../pages/ctrl-cost-center/testing';
import { COMPUTE_PATHS } from '../pages/ctrl-container-instances/paths';
import { badgeText, NotificationBell } from './NotificationBell';
import { PHONE_MEDIA_QUERY } from './useIsPhone';

const jsdomMatchMedia = window.matchMedia;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  focusManager.setFocused(undefined);
  window.matchMedia = jsdomMatchMedia;
});

function notice(overrides: Partial<Notification> & { id: number }): Notification {
  return {
    kind: 'ARREARS_POWER_OFF',
    title: '账户余额不足，实例已自动关机',
    body: '实例 ins-abc 因账户余额不足已自动关机并停止计费。',
    instanceId: 'ins-abc',
    read: false,
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    readAt: null,
    ...overrides,
  };
}

const listOf = (list: Notification[], total = list.length, page = 1) => ok({ list, total, page, pageSize: 10 });

function badge(): string | null {
  return screen.queryByTestId('notification-badge')?.textContent ?? null;
}

function bell(): HTMLElement {
  return screen.getByRole('button', { name: '消息通知' });
}

async function openPanel(): Promise<HTMLElement> {
  fireEvent.click(bell());
  return screen.findByRole('dialog', { name: '消息通知' });
}

/** The JSON body of the nth POST /notifications/read. */
function readBody(fetchMock: ReturnType<typeof mockApi>['fetchMock'], index = 0): unknown {
  const call = callsTo(fetchMock, 'POST', '/notifications/read')[index];
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

describe('the 消息通知 bell', () => {
  it('shows the unread count as a badge, capped at 99+, and none at 0', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(2_345)).toBe('99+');
  });

  it('renders the count from the server and describes it to screen readers', async () => {
    mockApi({ 'GET /notifications/unread-count': () => ok({ unread: 7 }) });
    renderPage(<NotificationBell />);
    await waitFor(() => expect(badge()).toBe('7'));
    const description = document.getElementById(bell().getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe('7条未读');
  });

  it('caps a large count at 99+', async () => {
    mockApi({ 'GET /notifications/unread-count': () => ok({ unread: 150 }) });
    renderPage(<NotificationBell />);
    await waitFor(() => expect(badge()).toBe('99+'));
  });

  it('polls the count every 30 s, so a stock alert that fires shows up without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let unread = 0;
    const api = mockApi({ 'GET /notifications/unread-count': () => ok({ unread }) });
    renderPage(<NotificationBell />);
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/notifications/unread-count')).toHaveLength(1));
    expect(badge()).toBeNull();

    unread = 1;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    await waitFor(() => expect(badge()).toBe('1'));
    expect(callsTo(api.fetchMock, 'GET', '/notifications/unread-count')).toHaveLength(2);
  });

  it('loads the count again when the tab gets the focus back', async () => {
    let unread = 2;
    const api = mockApi({ 'GET /notifications/unread-count': () => ok({ unread }) });
    renderPage(<NotificationBell />);
    await waitFor(() => expect(badge()).toBe('2'));

    unread = 4;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(badge()).toBe('4'));
    expect(callsTo(api.fetchMock, 'GET', '/notifications/unread-count')).toHaveLength(2);
  });

  it('loads the list only when opened, newest first, with kind, title, body, time and the unread mark', async () => {
    const api = mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 1 }),
      'GET /notifications': () =>
        listOf([
          notice({ id: 2, kind: 'STOCK_AVAILABLE', title: '到货提醒：华东一区 RTX 4090 已有空闲', body: '您订阅的华东一区 RTX 4090 1卡已有空闲。', instanceId: null }),
          notice({ id: 1, kind: 'PACKAGE_RENEWED', title: '实例已自动续费', read: true, readAt: new Date().toISOString(), createdAt: '2020-01-02T03:04:00.000Z' }),
        ]),
    });
    renderPage(<NotificationBell />);
    await waitFor(() => expect(badge()).toBe('1'));
    expect(callsTo(api.fetchMock, 'GET', '/notifications')).toHaveLength(0);
    expect(bell().getAttribute('aria-expanded')).toBe('false');

    const panel = await openPanel();
    expect(bell().getAttribute('aria-expanded')).toBe('true');
    const list = await within(panel).findByRole('list', { name: '消息列表' }, { timeout: 5000 });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText('到货提醒')).toBeTruthy();
    expect(within(items[0] as HTMLElement).getByText('到货提醒：华东一区 RTX 4090 已有空闲')).toBeTruthy();
    expect(within(items[0] as HTMLElement).getByText('您订阅的华东一区 RTX 4090 1卡已有空闲。')).toBeTruthy();
    expect(within(items[0] as HTMLElement).getByText('5分钟前')).toBeTruthy();
    expect(within(items[0] as HTMLElement).getByText('未读')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('已自动续费')).toBeTruthy();
    expect(within(items[1] as HTMLElement).queryByText('未读')).toBeNull();
    expect(within(items[1] as HTMLElement).getByText(absoluteTime(new Date('2020-01-02T03:04:00.000Z')))).toBeTruthy();

    const [call] = callsTo(api.fetchMock, 'GET', '/notifications');
    const url = new URL(String(call?.[0]), 'http://localhost');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('unread')).toBeNull();
  });

  it('marks a clicked notice read at once and goes to the instance list', async () => {
    const api = mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 3 }),
      'GET /notifications': () => listOf([notice({ id: 41 })]),
      'POST /notifications/read': () => pending(),
    });
    const { router } = renderPage(<NotificationBell />, '/ctrl-overview/overview');
    await waitFor(() => expect(badge()).toBe('3'));
    const panel = await openPanel();
    fireEvent.click(await within(panel).findByText('账户余额不足，实例已自动关机', undefined, { timeout: 5000 }));

    await waitFor(() => expect(router.state.location.pathname).toBe(COMPUTE_PATHS.list));
    expect(readBody(api.fetchMock)).toEqual({ ids: [41] });
    // The server never answers here: the badge went down by the one notice read, on its own.
    await waitFor(() => expect(badge()).toBe('2'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '消息通知' })).toBeNull());
  });

  it('sends a stock alert to the market', async () => {
    mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 1 }),
      'GET /notifications': () => listOf([notice({ id: 5, kind: 'STOCK_AVAILABLE', title: '到货提醒：华东一区 RTX 4090 已有空闲', instanceId: null })]),
      'POST /notifications/read': () => ok({ updated: 1 }),
    });
    const { router } = renderPage(<NotificationBell />, '/ctrl-overview/overview');
    const panel = await openPanel();
    fireEvent.click(await within(panel).findByText('到货提醒：华东一区 RTX 4090 已有空闲', undefined, { timeout: 5000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe(COMPUTE_PATHS.market));
  });

  it('leaves a read notice about a released instance as plain text (nowhere to go)', async () => {
    const api = mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 0 }),
      'GET /notifications': () => listOf([notice({ id: 6, kind: 'AUTO_RELEASED', title: '实例已自动释放', read: true, readAt: new Date().toISOString() })]),
    });
    const { router } = renderPage(<NotificationBell />, '/ctrl-overview/overview');
    const panel = await openPanel();
    const title = await within(panel).findByText('实例已自动释放', undefined, { timeout: 5000 });
    expect(title.closest('button')).toBeNull();
    fireEvent.click(title);
    expect(router.state.location.pathname).toBe('/ctrl-overview/overview');
    expect(callsTo(api.fetchMock, 'POST', '/notifications/read')).toHaveLength(0);
  });

  it('全部已读 marks everything read (no ids), clears the badge at once and reloads the count', async () => {
    let unread = 12;
    let answer: (response: Response) => void = () => undefined;
    const api = mockApi({
      'GET /notifications/unread-count': () => ok({ unread }),
      'GET /notifications': () =>
        listOf([notice({ id: 8, read: unread === 0 }), notice({ id: 7, kind: 'RELEASE_REMINDER', title: '实例将于明天自动释放', read: unread === 0 })]),
      'POST /notifications/read': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderPage(<NotificationBell />);
    await waitFor(() => expect(badge()).toBe('12'));
    const panel = await openPanel();
    await within(panel).findAllByText('未读', undefined, { timeout: 5000 });

    fireEvent.click(within(panel).getByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(badge()).toBeNull());
    expect(within(panel).queryAllByText('未读')).toHaveLength(0);
    expect(readBody(api.fetchMock)).toEqual({});

    const countsBefore = callsTo(api.fetchMock, 'GET', '/notifications/unread-count').length;
    unread = 0;
    await act(async () => {
      answer(ok({ updated: 12 }));
    });
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/notifications/unread-count').length).toBeGreaterThan(countsBefore));
    expect(badge()).toBeNull();
    await waitFor(() => expect(within(panel).getByRole('button', { name: '全部已读' }).hasAttribute('disabled')).toBe(true));
  });

  it('shows 暂无消息, and 暂无未读消息 with 仅看未读 (asking the server for unread ones)', async () => {
    const api = mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 0 }),
      'GET /notifications': () => listOf([]),
    });
    renderPage(<NotificationBell />);
    const panel = await openPanel();
    expect(await within(panel).findByText('暂无消息', undefined, { timeout: 5000 })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: '全部已读' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(within(panel).getByLabelText('仅看未读'));
    expect(await within(panel).findByText('暂无未读消息')).toBeTruthy();
    const last = callsTo(api.fetchMock, 'GET', '/notifications').at(-1);
    expect(new URL(String(last?.[0]), 'http://localhost').searchParams.get('unread')).toBe('true');
  });

  it('shows a load error once, in the panel, with 重试', async () => {
    let broken = true;
    const api = mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 1 }),
      'GET /notifications': () => (broken ? failure(400, 40000, '参数错误') : listOf([notice({ id: 9 })])),
    });
    renderPage(<NotificationBell />);
    const panel = await openPanel();
    const alert = await within(panel).findByRole('alert', undefined, { timeout: 5000 });
    expect(within(alert).getByText('消息加载失败')).toBeTruthy();
    expect(within(alert).getByText('参数错误')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(api.notify).not.toHaveBeenCalled();

    broken = false;
    fireEvent.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await within(panel).findByText('账户余额不足，实例已自动关机')).toBeTruthy();
    expect(within(panel).queryByRole('alert')).toBeNull();
  });

  it('loads older notices with 加载更多', async () => {
    const api = mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 0 }),
      'GET /notifications': (url) =>
        url.searchParams.get('page') === '2'
          ? listOf([notice({ id: 1, title: '第十一条', read: true })], 11, 2)
          : listOf(
              Array.from({ length: 10 }, (_, index) => notice({ id: 20 - index, title: `通知${index + 1}`, read: true })),
              11,
            ),
    });
    renderPage(<NotificationBell />);
    const panel = await openPanel();
    await within(panel).findByText('通知10', undefined, { timeout: 5000 });
    fireEvent.click(within(panel).getByRole('button', { name: '加载更多' }));
    expect(await within(panel).findByText('第十一条')).toBeTruthy();
    expect(within(panel).getAllByRole('listitem')).toHaveLength(11);
    expect(within(panel).queryByRole('button', { name: '加载更多' })).toBeNull();
    expect(callsTo(api.fetchMock, 'GET', '/notifications')).toHaveLength(2);
  });

  it('opens the notices in a drawer at phone width', async () => {
    window.matchMedia = (query: string) =>
      ({
        matches: query === PHONE_MEDIA_QUERY,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList;
    mockApi({
      'GET /notifications/unread-count': () => ok({ unread: 1 }),
      'GET /notifications': () => listOf([notice({ id: 3 })]),
    });
    renderPage(<NotificationBell />);
    fireEvent.click(bell());
    const drawer = await screen.findByRole('dialog');
    expect(drawer.classList.contains('slg-drawer')).toBe(true);
    expect(await within(drawer).findByText('账户余额不足，实例已自动关机', undefined, { timeout: 5000 })).toBeTruthy();
    // A press inside the list keeps the drawer open; its × closes it.
    fireEvent.mouseDown(within(drawer).getByText('仅看未读'));
    expect(screen.getByRole('dialog')).toBe(drawer);
    fireEvent.click(within(drawer).getByRole('button', { name: '关闭消息通知' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('notice times', () => {
  it('reads as 刚刚, minutes, hours and days ago within a week, then as the date', () => {
    const now = new Date(2026, 5, 16, 12, 0, 0);
    const before = (ms: number) => new Date(now.getTime() - ms);
    expect(relativeTime(before(20_000), now)).toBe('刚刚');
    expect(relativeTime(before(5 * 60_000), now)).toBe('5分钟前');
    expect(relativeTime(before(3 * 3_600_000), now)).toBe('3小时前');
    expect(relativeTime(before(2 * 86_400_000), now)).toBe('2天前');
    expect(relativeTime(new Date(2026, 4, 1, 9, 5), now)).toBe('2026-05-01 09:05');
  });
});
