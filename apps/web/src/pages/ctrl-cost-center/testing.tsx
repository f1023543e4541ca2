/**
 * Test helpers of the cost-centre pages (imported by *.test.tsx only): a fetch mock that answers by
 * `METHOD /path` and renders a page inside the app providers and a memory router.
 */
import { QueryClient } from '@tanstack/react-query';
import { render, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { configureApiClient } from '../../api/client';
import { useUserStore } from '../../stores/user';
import { AntdScope } from '../../theme/AntdScope';
import { AppProviders } from '../../theme/AppProviders';

export type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

export const ok = (result: unknown) =>
  new Response(JSON.stringify({ rspcode: 0, code: 200, rspmsg: 'success', result }), { status: 200, headers: { 'Content-Type': 'application/json' } });

export const failure = (status: number, code: number, rspmsg: string) =>
  new Response(JSON.stringify({ rspcode: code, code, rspmsg, result: null }), { status, headers: { 'Content-Type': 'application/json' } });

export const page = <T,>(list: T[], total = list.length) => ok({ list, total, page: 1, pageSize: 10 });

/** A promise that never settles: the loading state. */
export const pending = () => new Promise<Response>(() => undefined);

/** Installs a fetch mock answering `'GET /payment/channels'`-style keys; others get a 404 envelope. */
export function mockApi(routes: Record<string, Handler>) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const handler = routes[`${init?.method ?? 'GET'} ${path}`];
    return handler ? handler(url, init) : failure(404, 40400, '服务器资源不存在');
  });
  const notify = vi.fn<(text: string) => void>();
  useUserStore.getState().setSession({ jwtToken: 'jwt', refreshToken: 'refresh' }, 1);
  configureApiClient({
    fetch: fetchMock,
    notify,
    onUnauthorized: () => undefined,
    session: { getToken: () => useUserStore.getState().token, getRefreshToken: () => null, setTokens: () => undefined },
  });
  return { fetchMock, notify };
}

/** Calls of the fetch mock to a path (and method). */
export function callsTo(fetchMock: ReturnType<typeof mockApi>['fetchMock'], method: string, path: string) {
  return fetchMock.mock.calls.filter(([input, init]) => {
    const url = new URL(String(input), 'http://localhost');
    return (init?.method ?? 'GET') === method && url.pathname === `/api/v1${path}`;
  });
}

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
}

export function renderPage(element: ReactElement, entry = '/', queryClient = testQueryClient()) {
  // Pages wrap themselves in an AntdScope (withAntd); parts of pages rendered alone get one here.
  const router = createMemoryRouter([{ path: '*', element: <AntdScope>{element}</AntdScope> }], { initialEntries: [entry] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/**
 * The buttons showing this text, found by text rather than by role: role queries compute every
 * accessible name and style of a large antd page, which takes seconds in jsdom.
 */
export function buttonsByText(text: string, container: HTMLElement = document.body): HTMLButtonElement[] {
  const found = within(container)
    .queryAllByText(text, { selector: 'button, button *' })
    .map((element) => element.closest('button'))
    .filter((button): button is HTMLButtonElement => button !== null);
  return [...new Set(found)];
}

/** The one button showing this text. */
export function buttonByText(text: string, container?: HTMLElement): HTMLButtonElement {
  const [button, ...others] = buttonsByText(text, container);
  if (!button || others.length) throw new Error(`expected one button 「${text}」, found ${others.length + (button ? 1 : 0)}`);
  return button;
}

/** The links showing this text, found by text rather than by role (see `buttonsByText`). */
export function linksByText(text: string, container: HTMLElement = document.body): HTMLAnchorElement[] {
  const found = within(container)
    .queryAllByText(text, { selector: 'a[href], a[href] *' })
    .map((element) => element.closest('a'))
    .filter((link): link is HTMLAnchorElement => link !== null);
  return [...new Set(found)];
}

/** The dialogs on show, by their role attribute: a role query would compute the role and the visibility of every element. */
function dialogsOnShow(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].filter((dialog) => !dialog.closest('[aria-hidden="true"], [style*="display: none"]'));
}

/** The dialog on show (the newest), or null. */
export function queryDialog(): HTMLElement | null {
  return dialogsOnShow().at(-1) ?? null;
}

/** Waits for a dialog to show and returns it (the newest). */
export function findDialog(): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = queryDialog();
    if (!dialog) throw new Error('no dialog on show');
    return dialog;
  });
}

