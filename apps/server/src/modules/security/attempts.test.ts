import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { attemptWindows } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { pruneAttemptWindows, takeAttempt, type AttemptRule } from './attempts.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rule: AttemptRule = { scope: 'test', limit: 3, windowSeconds: 60 };

describe('attempt windows', () => {
  it('counts attempts in the window, refuses past the limit and says when the oldest leaves', async () => {
    const db = t.deps.database.db;
    const start = new Date('2026-06-01T02:00:00Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    expect(await takeAttempt(db, rule, 'a', at(0))).toMatchObject({ allowed: true, count: 1 });
    expect(await takeAttempt(db, rule, 'a', at(10))).toMatchObject({ allowed: true, count: 2 });
    // A lower limit for this attempt alone (a send without a human check).
    expect(await takeAttempt(db, rule, 'a', at(20), 2)).toMatchObject({ allowed: false, count: 2, retryAfterSeconds: 40 });
    expect(await takeAttempt(db, rule, 'a', at(20))).toMatchObject({ allowed: true, count: 3 });
    expect(await takeAttempt(db, rule, 'a', at(30))).toMatchObject({ allowed: false, count: 3, retryAfterSeconds: 30 });
    expect(await takeAttempt(db, rule, 'a', at(61))).toMatchObject({ allowed: true, count: 3 });
    expect(await takeAttempt(db, rule, 'b', at(61))).toMatchObject({ allowed: true, count: 1 });
  });

  it('prunes windows whose newest attempt is older than the longest window', async () => {
    const db = t.deps.database.db;
    const start = new Date('2026-06-02T02:00:00Z');
    await takeAttempt(db, rule, 'old', start);
    await takeAttempt(db, rule, 'recent', new Date(start.getTime() + 3000 * 1000));
    expect(await pruneAttemptWindows(db, new Date(start.getTime() + 3601 * 1000), 3600)).toBe(3);
    const subjects = await db.select({ subject: attemptWindows.subject }).from(attemptWindows).where(eq(attemptWindows.scope, 'test'));
    // 'old', and 'a' and 'b' of the test before, were idle for longer than an hour.
    expect(subjects.map((row) => row.subject)).toEqual(['recent']);
  });
});
