import { describe, expect, it } from 'vitest';
import { formatFen, formatYuan } from './money.js';

describe('formatting fen', () => {
  it('groups the yuan by thousands and keeps exactly two decimals', () => {
    expect(formatFen(0)).toBe('0.00');
    expect(formatFen(5)).toBe('0.05');
    expect(formatFen(99_999)).toBe('999.99');
    expect(formatFen(100_000)).toBe('1,000.00');
    expect(formatFen(123_456_789)).toBe('1,234,567.89');
    expect(formatFen(-123_456_789)).toBe('-1,234,567.89');
    expect(formatYuan(-5)).toBe('-¥0.05');
    expect(formatYuan(1_000_000_00)).toBe('¥1,000,000.00');
  });

  it('groups like en-US number formatting for every magnitude', () => {
    for (let yuan = 1; yuan < Number.MAX_SAFE_INTEGER / 100; yuan = yuan * 10 + 7) {
      expect(formatFen(yuan * 100 + 1)).toBe(`${yuan.toLocaleString('en-US')}.01`);
    }
  });

  it('refuses amounts that are not integer fen', () => {
    expect(() => formatFen(1.5)).toThrow(RangeError);
  });
});
