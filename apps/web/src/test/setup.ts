import { configure } from '@testing-library/react';

// jsdom lacks matchMedia, which antd's responsive helpers call.
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// jsdom lacks ResizeObserver, which antd's Tabs and Input measure with.
if (typeof globalThis.ResizeObserver === 'undefined') {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  globalThis.ResizeObserver = ResizeObserverStub;
}

// findBy* and waitFor give up after 1 s by default: on a busy 2-core machine running two files at once,
// a page's first render after a lazy import can take longer than that. A wait that succeeds returns at
// once, so the longer limit only matters for a test that would fail anyway.
configure({ asyncUtilTimeout: 5_000 });
