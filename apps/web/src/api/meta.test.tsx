import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

const GPU = { id: 'rtx4090', name: 'RTX 4090', memoryGb: 24, vendor: 'NVIDIA', architecture: 'Ada Lovelace', fp32Tflops: 82.6, pricePerHourFen: 198 };

function carry(text: string): void {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'slg-meta';
  script.textContent = text;
  document.head.append(script);
}

async function renderGpus() {
  // meta.ts reads the page once, when it is first imported.
  const { useGpus } = await import('./meta');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useGpus(), { wrapper });
}

describe('the lists the page carries', () => {
  afterEach(() => {
    cleanup();
    document.getElementById('slg-meta')?.remove();
    vi.resetModules();
    vi.unstubAllGlobals();
  });

  it('are there on the first render, with no request', async () => {
    carry(JSON.stringify({ gpu: [GPU] }));
    const fetchMock = vi.fn(() => new Promise<Response>(() => undefined));
    vi.stubGlobal('fetch', fetchMock);
    const { result } = await renderGpus();
    expect(result.current.isSuccess).toBe(true);
    expect(result.current.data).toEqual([GPU]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('are fetched when the page carries none, or a broken copy', async () => {
    carry('{"gpu": [');
    const fetchMock = vi.fn(() => new Promise<Response>(() => undefined));
    vi.stubGlobal('fetch', fetchMock);
    const { result } = await renderGpus();
    expect(result.current.isPending).toBe(true);
    expect(result.current.data).toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toContain('/meta/gpu');
  });
});
