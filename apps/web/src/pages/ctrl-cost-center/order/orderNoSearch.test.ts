import { describe, expect, it } from 'vitest';
import { parseOrderNoSearch } from './orderNoSearch';

describe('parseOrderNoSearch', () => {
  it.each([
    ['20250101120000123456', '20250101120000123456'],
    ['2025', '2025'],
    [' 2025 0101 ', '20250101'],
    ['２０２５', '2025'],
    ['', ''],
    ['   ', ''],
  ])('accepts %j as %j', (typed, value) => {
    expect(parseOrderNoSearch(typed)).toEqual({ ok: true, value });
  });

  it.each([['O2025'], ['abc'], ['2025-01'], ['202501011200001234567'], ['１２a']])('refuses %j', (typed) => {
    expect(parseOrderNoSearch(typed)).toEqual({ ok: false });
  });
});
