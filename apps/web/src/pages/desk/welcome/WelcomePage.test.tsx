/** 欢迎 says 注册成功 only to someone a registration brought here (issue 17). */
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../api/queryClient';
import { useUserStore } from '../../../stores/user';
import { AppProviders } from '../../../theme/AppProviders';
import WelcomePage from './index';
import { JUST_REGISTERED_STATE } from './registered';

function renderWelcome(state?: unknown) {
  const router = createMemoryRouter([{ path: '/welcome', element: <WelcomePage /> }], { initialEntries: [{ pathname: '/welcome', state }] });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

function linkByText(text: string): HTMLAnchorElement | null {
  return screen.queryByText(text, { selector: 'a, a *' })?.closest('a') ?? null;
}

afterEach(() => {
  cleanup();
  useUserStore.getState().clear();
});

describe('welcome page', () => {
  it('congratulates on the registration that brought the new account here', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    renderWelcome(JUST_REGISTERED_STATE);
    expect(await screen.findByText('注册成功，欢迎加入算力港！')).toBeTruthy();
    expect(linkByText('进入控制台')?.getAttribute('href')).toBe('/ctrl-overview/overview');
  });

  it('only welcomes a visitor who did not register, and offers 立即注册', async () => {
    renderWelcome();
    expect(await screen.findByText('欢迎来到算力港')).toBeTruthy();
    expect(screen.queryByText(/注册成功/)).toBeNull();
    expect(linkByText('立即注册')?.getAttribute('href')).toBe('/register');
    expect(linkByText('进入控制台')).toBeNull();
  });

  it('does not congratulate a signed-in account that opens the page again, nor trust any other state', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    renderWelcome({ registered: 'yes' });
    expect(await screen.findByText('欢迎来到算力港')).toBeTruthy();
    expect(screen.queryByText(/注册成功/)).toBeNull();
    expect(linkByText('进入控制台')).not.toBeNull();
  });
});
