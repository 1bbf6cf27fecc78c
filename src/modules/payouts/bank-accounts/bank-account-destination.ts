import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import type { CreateBankAccountDto } from '../dto/create-bank-account.dto.js';
import type { BankAccount } from '../entities/bank-account.entity.js';
import { PayoutErrors } from '../payouts.errors.js';
import type { BankAccountType } from '../../../providers/ports/transfer.port.js';
import {
  normaliseAccountNumber,
  normaliseThaiMobile,
  normaliseThaiNationalId,
  THAI_ACCOUNT_TYPES,
  THAI_BRANCH_CODE,
  thaiBank,
} from '../../../providers/ports/thai-banks.js';

/** Which top-level fields each type needs, and which it may carry. */
const TYPE_FIELDS: Record<BankAccountType, { required: string[]; allowed: string[] }> = {
  bookbank: { required: ['account_holder_name', 'target', 'extra_fields'], allowed: [] },
  promptpay_phone: { required: ['phone_number', 'account_holder_name'], allowed: ['target'] },
  promptpay_primary_identify_id: { required: ['primary_identify_id', 'account_holder_name'], allowed: ['target'] },
};
const TYPED_FIELDS = ['account_holder_name', 'phone_number', 'primary_identify_id', 'extra_fields', 'target'];
const BOOKBANK_KEYS = new Set(['bankCode', 'accountNumber', 'branchCode', 'accountType']);
const PASSTHROUGH_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_PASSTHROUGH_KEYS = 20;

/** The only form in which an account number, phone number or national ID is stored or returned. */
export const mask = (value: string | null) => (value === null ? null : `******${value.slice(-4)}`);

/**
 * The columns derived from the submitted fields (the number columns hold only the masked form),
 * plus what goes only to a provider and is never stored: the whole number and unknown extra_fields.
 */
export interface Destination {
  columns: Pick<
    BankAccount,
    | 'type'
    | 'currency'
    | 'account_holder_name'
    | 'bank_code'
    | 'branch_code'
    | 'account_type'
    | 'account_number'
    | 'phone_number'
    | 'primary_identify_id'
    | 'last4'
  >;
  passthrough: Record<string, unknown>;
  secret: { accountNumber?: string; phoneNumber?: string; nationalId?: string };
}

const invalid = (field: string, why: string) => new AppError(Errors.E2000, `Invalid parameter "${field}": ${why}.`);

/**
 * A submitted bank account checked against its type's field rules and the Thai bank rules: the
 * columns to store (numbers masked), what goes to the provider only, and the whole numbers.
 */
export function bankAccountDestination(dto: CreateBankAccountDto, currency: string): Destination {
  const type = dto.type as BankAccountType;
  const rules = TYPE_FIELDS[type];
  const fields = dto as unknown as Record<string, unknown>;
  for (const field of rules.required) {
    if (fields[field] === undefined) throw invalid(field, `is required for type ${type}`);
  }
  for (const field of TYPED_FIELDS) {
    if (fields[field] !== undefined && !rules.required.includes(field) && !rules.allowed.includes(field)) {
      throw invalid(field, `is not used by type ${type}`);
    }
  }
  const name = dto.account_holder_name!.trim();
  if (name === '' || /[\p{Cc}]/u.test(name)) throw invalid('account_holder_name', 'must be a printable name');
  if (dto.target !== undefined && dto.target !== currency) {
    throw new AppError(PayoutErrors.E6107, `Invalid parameter "target": bank accounts here are held in ${currency}.`);
  }
  const base = {
    type,
    currency,
    account_holder_name: name,
    bank_code: null,
    branch_code: null,
    account_type: null,
    account_number: null,
    phone_number: null,
    primary_identify_id: null,
  };
  if (type === 'promptpay_phone') {
    const phone = normaliseThaiMobile(dto.phone_number!);
    if (!phone) throw new AppError(PayoutErrors.E6105);
    return {
      columns: { ...base, phone_number: mask(phone), last4: phone.slice(-4) },
      passthrough: {},
      secret: { phoneNumber: phone },
    };
  }
  if (type === 'promptpay_primary_identify_id') {
    const id = normaliseThaiNationalId(dto.primary_identify_id!);
    if (!id) throw new AppError(PayoutErrors.E6106);
    return {
      columns: { ...base, primary_identify_id: mask(id), last4: id.slice(-4) },
      passthrough: {},
      secret: { nationalId: id },
    };
  }
  return bookbank(dto.extra_fields!, base);
}

function bookbank(extra: Record<string, unknown>, base: Omit<Destination['columns'], 'last4'>): Destination {
  const text = (key: string, required: boolean): string | undefined => {
    const value = extra[key];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new AppError(
        PayoutErrors.E6108,
        `Invalid parameter "extra_fields.${key}": ${value === undefined ? 'is required for type bookbank' : 'must be a non-empty string'}.`,
      );
    }
    return value.trim();
  };
  const bankCode = text('bankCode', true)!;
  const bank = thaiBank(bankCode);
  if (!bank) throw new AppError(PayoutErrors.E6103, `Invalid parameter "extra_fields.bankCode": not a Thai bank code.`);
  const accountNumber = normaliseAccountNumber(bank, text('accountNumber', true)!);
  if (!accountNumber) {
    throw new AppError(
      PayoutErrors.E6104,
      `Invalid parameter "extra_fields.accountNumber": ${bank.short} account numbers have ${bank.lengths.join(' or ')} digits.`,
    );
  }
  const branchCode = text('branchCode', false);
  if (branchCode !== undefined && !THAI_BRANCH_CODE.test(branchCode)) {
    throw new AppError(PayoutErrors.E6108, 'Invalid parameter "extra_fields.branchCode": must be 4 digits.');
  }
  const accountType = text('accountType', false);
  if (accountType !== undefined && !(THAI_ACCOUNT_TYPES as readonly string[]).includes(accountType)) {
    throw new AppError(
      PayoutErrors.E6108,
      `Invalid parameter "extra_fields.accountType": must be one of ${THAI_ACCOUNT_TYPES.join(', ')}.`,
    );
  }
  const passthrough = Object.fromEntries(Object.entries(extra).filter(([key]) => !BOOKBANK_KEYS.has(key)));
  const keys = Object.keys(passthrough);
  if (keys.length > MAX_PASSTHROUGH_KEYS || keys.some((key) => !PASSTHROUGH_KEY.test(key))) {
    throw new AppError(
      PayoutErrors.E6108,
      `Invalid parameter "extra_fields": at most ${MAX_PASSTHROUGH_KEYS} other keys, each a letter then letters, digits or _.`,
    );
  }
  return {
    columns: {
      ...base,
      bank_code: bank.code,
      branch_code: branchCode ?? null,
      account_type: accountType ?? null,
      account_number: mask(accountNumber),
      last4: accountNumber.slice(-4),
    },
    passthrough,
    secret: { accountNumber },
  };
}
