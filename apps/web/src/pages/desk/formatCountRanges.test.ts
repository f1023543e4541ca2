import { describe, expect, it } from 'vitest';
import { TIME_PACKAGE_COUNTS } from '@slg/shared';
import { formatCountRanges } from './formatCountRanges';

describe('formatCountRanges', () => {
  it('collapses the time package counts of spec §9', () => {
    expect(formatCountRanges(TIME_PACKAGE_COUNTS.day)).toBe('1–6');
    expect(formatCountRanges(TIME_PACKAGE_COUNTS.week)).toBe('1–3');
    expect(formatCountRanges(TIME_PACKAGE_COUNTS.month)).toBe('1–10、20、50、100');
  });

  it('keeps short runs and single values apart', () => {
    expect(formatCountRanges([])).toBe('');
    expect(formatCountRanges([7])).toBe('7');
    expect(formatCountRanges([2, 1])).toBe('1、2');
    expect(formatCountRanges([5, 1, 2, 3, 3])).toBe('1–3、5');
  });
});
