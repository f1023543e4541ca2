import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine (CI). Each file
    // runs in a process of its own (pool forks, isolated), so two files at once share nothing but
    // the CPU. VITEST_MAX_WORKERS overrides it (1 reproduces the old run).
    pool: 'forks',
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
    // Two files on two busy cores render antd pages at half speed: a test or a file's first import
    // of a lazy page may take several times its quiet-machine time. Waits that only wait must not fail.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
