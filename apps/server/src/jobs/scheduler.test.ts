import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startJobs } from './scheduler.js';

const log = { error: vi.fn() } as unknown as FastifyBaseLogger;

afterEach(() => {
  vi.useRealTimers();
});

describe('job scheduler', () => {
  it('runs each job on its interval, never overlapping itself, logs failures and stops', async () => {
    vi.useFakeTimers();
    let release: () => void = () => {};
    let runs = 0;
    const slow = {
      name: 'slow',
      everyMs: 1000,
      run: () =>
        new Promise<void>((resolve) => {
          runs += 1;
          release = resolve;
        }),
    };
    const failing = { name: 'failing', everyMs: 1000, run: () => Promise.reject(new Error('boom')) };
    const stop = startJobs([slow, failing], log);

    await vi.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(1);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ job: 'failing' }), 'job failed');
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    stop();
    release();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(2);
  });
});
