import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../api/client';
import { createQueryClient } from '../../../api/queryClient';
import { AppProviders } from '../../../theme/AppProviders';
import HomePage from './index';

const ok = (result: unknown) => new Response(JSON.stringify({ rspcode: 0, code: 200, rspmsg: 'success', result }), { status: 200 });

const GPUS = [
  { id: 'rtx4090', name: 'RTX 4090', memoryGb: 24, vendor: 'NVIDIA', architecture: 'Ada Lovelace', fp32Tflops: 82.6, pricePerHourFen: 198 },
  { id: 'a100', name: 'A100', memoryGb: 80, vendor: 'NVIDIA', architecture: 'Ampere', fp32Tflops: 19.5, pricePerHourFen: 123456 },
];

function renderHome() {
  const router = createMemoryRouter([{ path: '/', element: <HomePage /> }], { initialEntries: ['/'] });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('home page', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/meta/gpu')) return ok(GPUS);
      if (url.endsWith('/meta/zone')) return ok([{ id: 'bj-a', name: '北京A区', region: '华北', description: '' }]);
      if (url.endsWith('/meta/images/public')) return ok([]);
      return new Response('', { status: 404 });
    });
    configureApiClient({
      fetch: fetchMock,
      notify: () => undefined,
      onUnauthorized: () => undefined,
      session: { getToken: () => null, getRefreshToken: () => null, setTokens: () => undefined },
    });
  });
  afterEach(() => cleanup());

  it('shows each GPU with its price, a link to rent it in 算力市场, and links to the billing section', async () => {
    renderHome();
    const card = (await screen.findByRole('heading', { name: 'RTX 4090' })).closest('article') as HTMLElement;
    expect(within(card).getByText('¥1.98')).toBeTruthy();
    // The card itself does not react to a click; its one control is the link to the market filtered to the model.
    const rent = within(card).getAllByRole('link');
    expect(rent).toHaveLength(1);
    expect(rent[0]?.getAttribute('aria-label')).toBe('在算力市场租用 RTX 4090');
    expect(rent[0]?.getAttribute('href')).toBe('/computility-market?gpuModelId=rtx4090');
    expect(within(card).queryAllByRole('button')).toHaveLength(0);
    expect(card.className).not.toMatch(/hoverable|clickable/);
    expect(within((await screen.findByRole('heading', { name: 'A100' })).closest('article') as HTMLElement).getByText('¥1,234.56')).toBeTruthy();

    const priceLink = screen.getByRole('link', { name: '了解按量计费与包日 / 包周 / 包月' });
    const target = priceLink.getAttribute('href') ?? '';
    expect(target).toBe('#home-billing');
    const billing = document.getElementById(target.slice(1));
    expect(billing?.tagName).toBe('SECTION');
    expect(within(billing as HTMLElement).getByRole('heading', { level: 2 }).textContent).toBe('计费方式');
  });

  it('keeps one h1 and names every section by its heading', async () => {
    renderHome();
    await screen.findByRole('heading', { name: 'RTX 4090' });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    for (const section of document.querySelectorAll('section')) {
      const labelledBy = section.getAttribute('aria-labelledby');
      expect(labelledBy && document.getElementById(labelledBy)?.textContent, section.id).toBeTruthy();
    }
  });
});
