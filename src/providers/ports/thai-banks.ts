/**
 * What a Thai bank checks before it accepts a payout destination. Bank codes are the Bank of
 * Thailand's three-digit codes; account number lengths are the ones Thai payout providers publish
 * per bank (a bank that issues two lengths lists both).
 */
export interface ThaiBank {
  code: string;
  short: string;
  name: string;
  lengths: readonly number[];
}

export const THAI_BANKS: readonly ThaiBank[] = [
  { code: '002', short: 'BBL', name: 'Bangkok Bank', lengths: [10] },
  { code: '004', short: 'KBANK', name: 'Kasikornbank', lengths: [10] },
  { code: '006', short: 'KTB', name: 'Krungthai Bank', lengths: [10] },
  { code: '011', short: 'TTB', name: 'TMBThanachart Bank', lengths: [10] },
  { code: '014', short: 'SCB', name: 'Siam Commercial Bank', lengths: [10] },
  { code: '017', short: 'CITI', name: 'Citibank', lengths: [10] },
  { code: '018', short: 'SMBC', name: 'Sumitomo Mitsui Banking Corporation', lengths: [10] },
  { code: '020', short: 'SCBT', name: 'Standard Chartered Bank (Thai)', lengths: [11] },
  { code: '022', short: 'CIMBT', name: 'CIMB Thai Bank', lengths: [10] },
  { code: '024', short: 'UOBT', name: 'United Overseas Bank (Thai)', lengths: [10] },
  { code: '025', short: 'BAY', name: 'Bank of Ayudhya (Krungsri)', lengths: [10] },
  { code: '026', short: 'MEGA', name: 'Mega International Commercial Bank', lengths: [11] },
  { code: '030', short: 'GSB', name: 'Government Savings Bank', lengths: [12] },
  { code: '031', short: 'HSBC', name: 'HSBC', lengths: [12] },
  { code: '033', short: 'GHB', name: 'Government Housing Bank', lengths: [12] },
  { code: '034', short: 'BAAC', name: 'Bank for Agriculture and Agricultural Cooperatives', lengths: [12] },
  { code: '039', short: 'MHCB', name: 'Mizuho Bank', lengths: [10] },
  { code: '066', short: 'IBANK', name: 'Islamic Bank of Thailand', lengths: [12] },
  { code: '067', short: 'TISCO', name: 'TISCO Bank', lengths: [10, 14] },
  { code: '069', short: 'KKP', name: 'Kiatnakin Phatra Bank', lengths: [10, 14] },
  { code: '070', short: 'ICBCT', name: 'ICBC (Thai)', lengths: [12] },
  { code: '071', short: 'TCRB', name: 'Thai Credit Bank', lengths: [10, 14] },
  { code: '073', short: 'LHFG', name: 'Land and Houses Bank', lengths: [10] },
];

const BY_CODE = new Map(THAI_BANKS.map((b) => [b.code, b]));

export const thaiBank = (code: string): ThaiBank | undefined => BY_CODE.get(code);

/** Spaces and dashes are how people write numbers down; nothing else is stripped. */
const compact = (raw: string) => raw.replace(/[\s-]/g, '');

/** The account number as digits only, or null when it does not fit the bank. */
export function normaliseAccountNumber(bank: ThaiBank, raw: string): string | null {
  const digits = compact(raw);
  if (!/^\d+$/.test(digits) || !bank.lengths.includes(digits.length)) return null;
  return digits;
}

/** A Thai mobile number (06x, 08x, 09x) as 10 digits; `+66` / `66` international form accepted. */
export function normaliseThaiMobile(raw: string): string | null {
  let digits = compact(raw);
  if (digits.startsWith('+66')) digits = `0${digits.slice(3)}`;
  else if (/^66\d{9}$/.test(digits)) digits = `0${digits.slice(2)}`;
  return /^0[689]\d{8}$/.test(digits) ? digits : null;
}

/** A 13-digit Thai national ID: digit 13 = (11 - Σ dᵢ·(14 - i) mod 11) mod 10, for i = 1..12. */
export function normaliseThaiNationalId(raw: string): string | null {
  const digits = compact(raw);
  if (!/^[1-8]\d{12}$/.test(digits)) return null;
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += Number(digits[i]) * (13 - i);
  return (11 - (sum % 11)) % 10 === Number(digits[12]) ? digits : null;
}

export const THAI_BRANCH_CODE = /^\d{4}$/;
export const THAI_ACCOUNT_TYPES = ['savings', 'current'] as const;
