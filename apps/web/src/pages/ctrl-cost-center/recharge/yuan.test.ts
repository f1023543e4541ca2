import { describe, expect, it } from 'vitest';
import { checkRechargeAmount, fenToYuanInput, parseYuanToFen } from './yuan';

describe('parseYuanToFen', () => {
  it('converts yuan strings to integer fen exactly', () => {
    expect(parseYuanToFen('100')).toBe(10000);
    expect(parseYuanToFen('0.01')).toBe(1);
    expect(parseYuanToFen('0.1')).toBe(10);
    expect(parseYuanToFen('12.5')).toBe(1250);
    expect(parseYuanToFen('19.99')).toBe(1999);
    expect(parseYuanToFen(' 50 ')).toBe(5000);
    expect(parseYuanToFen('0.29')).toBe(29); // 0.29 * 100 is 28.999… in floating point
    expect(parseYuanToFen('100000.01')).toBe(10000001);
  });

  it('rejects anything that is not a plain amount with at most two decimals', () => {
    for (const text of ['1.005', '', '.5', '1.', '-1', '+1', '1e3', '1,000', 'abc', '1 000', '0x10', '１００', '1234567890']) {
      expect(parseYuanToFen(text), text).toBeNull();
    }
  });
});

describe('checkRechargeAmount', () => {
  it('accepts ¥1 … ¥100,000', () => {
    expect(checkRechargeAmount('1')).toEqual({ ok: true, fen: 100 });
    expect(checkRechargeAmount('100')).toEqual({ ok: true, fen: 10000 });
    expect(checkRechargeAmount('100000')).toEqual({ ok: true, fen: 10_000_000 });
  });

  it('names what is wrong', () => {
    expect(checkRechargeAmount('')).toEqual({ ok: false, error: 'required' });
    expect(checkRechargeAmount(undefined)).toEqual({ ok: false, error: 'required' });
    expect(checkRechargeAmount('1.005')).toEqual({ ok: false, error: 'format' });
    expect(checkRechargeAmount('0.01')).toEqual({ ok: false, error: 'min' });
    expect(checkRechargeAmount('0.99')).toEqual({ ok: false, error: 'min' });
    expect(checkRechargeAmount('100000.01')).toEqual({ ok: false, error: 'max' });
  });
});

describe('fenToYuanInput', () => {
  it('round-trips with parseYuanToFen', () => {
    for (const fen of [100, 150, 1999, 10000, 500000, 10_000_000, 1]) {
      expect(parseYuanToFen(fenToYuanInput(fen))).toBe(fen);
    }
    expect(fenToYuanInput(5000)).toBe('50');
    expect(fenToYuanInput(150)).toBe('1.50');
  });
});
