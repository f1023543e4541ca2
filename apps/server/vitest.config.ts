import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Two files at once
    // keep both cores busy (PGlite is CPU-bound, PostgreSQL works in its own processes): the suite on
    // PGlite went from 476 s to 369 s, on PostgreSQL from 254 s to 178 s.
    maxWorkers: 2,
    // Two queries at once on one PostgreSQL connection fail the test (see the file).
    setupFiles: ['test/setup/no-concurrent-queries.ts'],
    // One migrated, seeded PGlite database for the run; each file opens a copy (see the file).
    globalSetup: ['test/setup/pglite-template.ts'],
  },
});
