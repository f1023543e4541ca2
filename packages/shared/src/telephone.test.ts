import { describe, expect, it } from 'vitest';
import { normalizeTelephone } from './telephone.js';
import { TELEPHONE_PATTERN } from './validation.js';

describe('normalizeTelephone', () => {
  it.each([
    ['13800138001', '13800138001'],
    ['138 0013 8001', '13800138001'],
    ['138-0013-8001', '13800138001'],
    ['+86 13800138001', '13800138001'],
    ['+86 138-0013-8001', '13800138001'],
    ['0086 13800138001', '13800138001'],
    ['8613800138001', '13800138001'],
    ['１３８００１３８００１', '13800138001'],
    ['＋８６　１３８　００１３　８００１', '13800138001'],
    ['(+86) 138.0013.8001', '13800138001'],
    ['138－0013－8001', '13800138001'],
    ['  13800138001\t', '13800138001'],
    ['138\u00A00013\u00A08001', '13800138001'],
  ])('turns %j into %s', (input, expected) => {
    expect(normalizeTelephone(input)).toBe(expected);
    expect(TELEPHONE_PATTERN.test(normalizeTelephone(input))).toBe(true);
  });

  it.each([
    ['', ''],
    ['abc', 'abc'],
    ['1380013800', '1380013800'],
    ['138001380012', '138001380012'],
    ['+1 415 555 0100', '+14155550100'],
    ['86 23800138001', '8623800138001'],
    ['+8613800138001x', '+8613800138001x'],
  ])('leaves what is no mainland number invalid: %j → %j', (input, expected) => {
    expect(normalizeTelephone(input)).toBe(expected);
    expect(TELEPHONE_PATTERN.test(normalizeTelephone(input))).toBe(false);
  });

  it('keeps a 86 that belongs to the number itself', () => {
    // 11 digits starting with 186 are a number, not a country code in front of 9 digits.
    expect(normalizeTelephone('18612345678')).toBe('18612345678');
  });
});
