import { normaliseAccountNumber, normaliseThaiMobile, normaliseThaiNationalId, thaiBank } from './thai-banks.js';

describe('Thai bank rules', () => {
  it('knows bank codes and their account number lengths', () => {
    expect(thaiBank('004')?.short).toBe('KBANK');
    expect(thaiBank('999')).toBeUndefined();
    expect(normaliseAccountNumber(thaiBank('004')!, '123-4-56789-0')).toBe('1234567890');
    expect(normaliseAccountNumber(thaiBank('004')!, '123456789')).toBeNull();
    expect(normaliseAccountNumber(thaiBank('030')!, '123456789012')).toBe('123456789012');
    expect(normaliseAccountNumber(thaiBank('030')!, '1234567890')).toBeNull();
    expect(normaliseAccountNumber(thaiBank('067')!, '12345678901234')).toBe('12345678901234');
    expect(normaliseAccountNumber(thaiBank('004')!, '12345678a0')).toBeNull();
  });

  it('normalises Thai mobile numbers, +66 form included', () => {
    expect(normaliseThaiMobile('0812345678')).toBe('0812345678');
    expect(normaliseThaiMobile('+66812345678')).toBe('0812345678');
    expect(normaliseThaiMobile('+66 81 234 5678')).toBe('0812345678');
    expect(normaliseThaiMobile('66912345678')).toBe('0912345678');
    expect(normaliseThaiMobile('081-234-5678')).toBe('0812345678');
    expect(normaliseThaiMobile('021234567')).toBeNull(); // Bangkok landline
    expect(normaliseThaiMobile('0212345678')).toBeNull();
    expect(normaliseThaiMobile('081234567')).toBeNull();
    expect(normaliseThaiMobile('+6681234567')).toBeNull();
    expect(normaliseThaiMobile('+1812345678')).toBeNull();
  });

  it('checks the national ID check digit', () => {
    expect(normaliseThaiNationalId('1101700230708')).toBe('1101700230708');
    expect(normaliseThaiNationalId('1-1017-00230-70-8')).toBe('1101700230708');
    expect(normaliseThaiNationalId('1101700230705')).toBeNull();
    expect(normaliseThaiNationalId('110170023070')).toBeNull();
    expect(normaliseThaiNationalId('0101700230708')).toBeNull();
  });
});
