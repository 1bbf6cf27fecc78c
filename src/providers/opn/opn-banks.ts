import { THAI_BANKS } from '../ports/thai-banks.js';

/**
 * Bank of Thailand three-digit codes (src/providers/ports/thai-banks.ts) to Opn's recipient
 * `bank_account[brand]` codes, from Opn's list of supported banks
 * (https://docs.omise.co/supported-banks, Thailand).
 */
export const OPN_THAI_BANK_BRANDS: Readonly<Record<string, string>> = {
  '002': 'bbl',
  '004': 'kbank',
  '006': 'ktb',
  '011': 'ttb',
  '014': 'scb',
  '017': 'citi',
  '018': 'smbc',
  '020': 'sc',
  '022': 'cimb',
  '024': 'uob',
  '025': 'bay',
  '026': 'mega',
  '030': 'gsb',
  '031': 'hsbc',
  '033': 'ghb',
  '034': 'baac',
  '039': 'mb',
  '066': 'ibank',
  '067': 'tisco',
  '069': 'kk',
  '070': 'icbc',
  '071': 'tcrb',
  '073': 'lhb',
};

export function opnBankBrand(bankCode: string): string | undefined {
  return OPN_THAI_BANK_BRANDS[bankCode];
}

/** Every bank the service accepts has an Opn brand (checked by the contract test). */
export const unmappedThaiBanks = (): string[] =>
  THAI_BANKS.filter((b) => !OPN_THAI_BANK_BRANDS[b.code]).map((b) => b.code);
