import { describe, expect, it } from 'vitest';
import {
  checkCreditCode,
  checkIdNumber,
  checkRealName,
  chinaDateKey,
  detectPrivateUploadType,
  IDENTITY_MESSAGES as M,
  idNumberCheckCharacter,
  maskIdNumber,
  maskName,
  maskTail,
  normalizeCode,
} from './identity.js';

// 10:00 on 1 June 2026 in China.
const NOW = new Date('2026-06-01T02:00:00Z');
const withCheck = (first17: string) => `${first17}${idNumberCheckCharacter(first17)}`;

describe('checkIdNumber (GB 11643-1999)', () => {
  it.each([
    ['11010519491231002X', '11010519491231002X'],
    ['11010519491231002x', '11010519491231002X'],
    [' 1101 0519 4912 3100 2X ', '11010519491231002X'],
    ['１１０１０５１９４９１２３１００２Ｘ', '11010519491231002X'],
    ['440304199001011233', '440304199001011233'],
    ['310115200002290013', '310115200002290013'],
    // Born today (China calendar), and exactly 120 years ago.
    ['110105202606010018', '110105202606010018'],
    ['110105190606010012', '110105190606010012'],
  ])('accepts %j', (input, value) => {
    expect(checkIdNumber(input, NOW)).toEqual({ ok: true, value });
  });

  it.each([
    ['', M.idNumberRequired],
    ['   ', M.idNumberRequired],
    ['110105194912310021', M.idNumberChecksum],
    ['110105199902300007', M.idNumberBirthDate],
    ['110105199913010000', M.idNumberBirthDate],
    ['110105202606020013', M.idNumberFuture],
    [withCheck('11010518500101001'), M.idNumberAge],
    [withCheck('11010519060531001'), M.idNumberAge],
    ['990105199001011236', M.idNumberRegion],
    ['000105199001011236', M.idNumberRegion],
    ['11010519491231002', M.idNumberFormat],
    ['11010519491231002X1', M.idNumberFormat],
    ['1101051949123100AX', M.idNumberFormat],
    ['abcdefghijklmnopqr', M.idNumberFormat],
    ['X10105194912310021', M.idNumberFormat],
  ])('refuses %j: %s', (input, message) => {
    expect(checkIdNumber(input, NOW)).toEqual({ ok: false, message });
  });

  it('gives each rule its own message', () => {
    expect(new Set(Object.values(M)).size).toBe(Object.values(M).length);
  });

  it('judges "today" on the China calendar', () => {
    // 23:30 UTC on 31 May is already 1 June in China.
    expect(chinaDateKey(new Date('2026-05-31T23:30:00Z'))).toBe('20260601');
    expect(checkIdNumber('110105202606010018', new Date('2026-05-31T23:30:00Z')).ok).toBe(true);
    expect(checkIdNumber('110105202606010018', new Date('2026-05-31T15:30:00Z'))).toEqual({ ok: false, message: M.idNumberFuture });
  });

  it('computes the MOD 11-2 check character with X for 10', () => {
    expect(idNumberCheckCharacter('11010519491231002')).toBe('X');
    expect(idNumberCheckCharacter('44030419900101123')).toBe('3');
  });
});

describe('checkCreditCode (GB 32100-2015)', () => {
  it.each([
    ['91350100M000100Y43', '91350100M000100Y43'],
    ['91350100m000100y43', '91350100M000100Y43'],
    ['9135 0100 M000 100Y 43', '91350100M000100Y43'],
    ['91110000100000000R', '91110000100000000R'],
    // A public institution (事业单位, a school) and a social organisation.
    ['12100000400000000W', '12100000400000000W'],
    ['52110000MJ00000003', '52110000MJ00000003'],
  ])('accepts %j', (input, value) => {
    expect(checkCreditCode(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['', M.creditCodeRequired],
    ['91350100M000100Y44', M.creditCodeChecksum],
    ['91350100M000100Y4', M.creditCodeFormat],
    ['91350100M000100Y433', M.creditCodeFormat],
    // I, O, S, V, Z are not in the character set.
    ['91350100M000100I43', M.creditCodeFormat],
    ['91350100M000100O43', M.creditCodeFormat],
    ['91350100M00#100Y43', M.creditCodeFormat],
  ])('refuses %j: %s', (input, message) => {
    expect(checkCreditCode(input)).toEqual({ ok: false, message });
  });
});

describe('checkRealName', () => {
  it.each([
    ['张三', '张三'],
    [' 欧阳娜娜 ', '欧阳娜娜'],
    ['阿卜杜拉·艾则孜', '阿卜杜拉·艾则孜'],
    ['阿卜杜拉•艾则孜', '阿卜杜拉·艾则孜'],
    ['John  Smith', 'John Smith'],
    // A character outside the basic block (CJK Extension B) counts as one.
    ['𠮷田', '𠮷田'],
  ])('accepts %j', (input, value) => {
    expect(checkRealName(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['', M.realNameRequired],
    ['张', M.realNameFormat],
    ['张3', M.realNameFormat],
    ['·张三', M.realNameFormat],
    ['张三·', M.realNameFormat],
    ['张··三', M.realNameFormat],
    ['a'.repeat(31), M.realNameFormat],
  ])('refuses %j', (input, message) => {
    expect(checkRealName(input)).toEqual({ ok: false, message });
  });
});

describe('masks', () => {
  it('shows the first and last four characters of an ID number', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('1101**********002X');
  });
  it('stars every character of a name but the last', () => {
    expect(maskName('张三')).toBe('*三');
    expect(maskName('欧阳娜娜')).toBe('***娜');
  });
  it('shows the tail of a student number', () => {
    expect(maskTail('2023123456')).toBe('******3456');
    expect(maskTail('123')).toBe('***');
  });
  it('normalises codes as people paste them', () => {
    expect(normalizeCode(' ９１３５-0100m\u3000')).toBe('91350100M');
  });
});

describe('detectPrivateUploadType', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);
  it('reads the magic numbers, not the name', () => {
    expect(detectPrivateUploadType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0))).toBe('image/jpeg');
    expect(detectPrivateUploadType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(detectPrivateUploadType(new TextEncoder().encode('%PDF-1.7\n'))).toBe('application/pdf');
    expect(detectPrivateUploadType(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(detectPrivateUploadType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectPrivateUploadType(bytes(0xff, 0xd8))).toBeNull();
    expect(detectPrivateUploadType(bytes())).toBeNull();
  });
});
