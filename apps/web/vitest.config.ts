import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Rendering antd pages in jsdom takes seconds on a busy 2-core machine; 5 s failed tests that only waited.
    testTimeout: 15_000,
  },
});
