import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two queries at once on one PostgreSQL connection fail the test (see the file).
    setupFiles: ['test/setup/no-concurrent-queries.ts'],
  },
});
