import { describe, expect, it } from 'vitest';
import { idempotencyHeaders, newIdempotencyKey } from './idempotency';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newIdempotencyKey', () => {
  it('is a fresh v4 UUID each time', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(UUID_V4);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('builds the UUID from random bytes where randomUUID is missing (plain http)', () => {
    const source = { getRandomValues: <T extends ArrayBufferView | null>(array: T): T => {
      if (array instanceof Uint8Array) array.fill(0xff);
      return array;
    } };
    expect(newIdempotencyKey(source)).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(newIdempotencyKey(source)).toMatch(UUID_V4);
  });

  it('is sent as the Idempotency-Key header', () => {
    expect(idempotencyHeaders('k')).toEqual({ 'Idempotency-Key': 'k' });
  });
});
