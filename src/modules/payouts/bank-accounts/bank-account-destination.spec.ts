import { AppError } from '../../../common/errors/app-error.js';
import type { CreateBankAccountDto } from '../dto/create-bank-account.dto.js';
import { bankAccountDestination } from './bank-account-destination.js';

const dto = (fields: Record<string, unknown>) => ({ account: 'acct', ...fields }) as unknown as CreateBankAccountDto;

/** The catalog code a refused destination is refused with. */
function refusal(fields: Record<string, unknown>): string {
  try {
    bankAccountDestination(dto(fields), 'THB');
  } catch (err) {
    if (err instanceof AppError) return err.definition.code;
    throw err;
  }
  throw new Error('the destination was accepted');
}

describe('bankAccountDestination', () => {
  it('stores a bookbank number masked, sends it whole, and passes unknown extra_fields to the provider only', () => {
    const destination = bankAccountDestination(
      dto({
        type: 'bookbank',
        account_holder_name: ' Somchai Jaidee ',
        target: 'THB',
        extra_fields: { bankCode: '004', accountNumber: '123-4-56789-0', branchCode: '0001', note: 'x' },
      }),
      'THB',
    );
    expect(destination.columns).toMatchObject({
      type: 'bookbank',
      currency: 'THB',
      account_holder_name: 'Somchai Jaidee',
      bank_code: '004',
      branch_code: '0001',
      account_number: '******7890',
      last4: '7890',
      phone_number: null,
    });
    expect(destination.secret).toEqual({ accountNumber: '1234567890' });
    expect(destination.passthrough).toEqual({ note: 'x' });
  });

  it('keeps a PromptPay phone number and national ID masked, the whole one as the secret', () => {
    const phone = bankAccountDestination(
      dto({ type: 'promptpay_phone', account_holder_name: 'A', phone_number: '+66812345678' }),
      'THB',
    );
    expect(phone.columns).toMatchObject({ phone_number: '******5678', last4: '5678', account_number: null });
    expect(phone.secret).toEqual({ phoneNumber: '0812345678' });
    const id = bankAccountDestination(
      dto({ type: 'promptpay_primary_identify_id', account_holder_name: 'A', primary_identify_id: '1101700230708' }),
      'THB',
    );
    expect(id.columns).toMatchObject({ primary_identify_id: '******0708', last4: '0708' });
    expect(id.secret).toEqual({ nationalId: '1101700230708' });
  });

  it('refuses what the type or the Thai bank rules do not allow, each with its own code', () => {
    const bookbank = { type: 'bookbank', account_holder_name: 'A', target: 'THB' };
    expect(refusal({ type: 'promptpay_phone', account_holder_name: 'A' })).toBe('E2000'); // phone_number missing
    expect(refusal({ ...bookbank, phone_number: '0812345678', extra_fields: {} })).toBe('E2000'); // not a bookbank field
    expect(refusal({ ...bookbank, account_holder_name: '\u0007', extra_fields: {} })).toBe('E2000');
    expect(refusal({ ...bookbank, target: 'USD', extra_fields: {} })).toBe('E6107');
    expect(refusal({ ...bookbank, extra_fields: { bankCode: '999', accountNumber: '1234567890' } })).toBe('E6103');
    expect(refusal({ ...bookbank, extra_fields: { bankCode: '004', accountNumber: '123' } })).toBe('E6104');
    expect(
      refusal({ ...bookbank, extra_fields: { bankCode: '004', accountNumber: '1234567890', branchCode: '1' } }),
    ).toBe('E6108');
    expect(refusal({ type: 'promptpay_phone', account_holder_name: 'A', phone_number: '021234567' })).toBe('E6105');
    expect(
      refusal({
        type: 'promptpay_primary_identify_id',
        account_holder_name: 'A',
        primary_identify_id: '1101700230705',
      }),
    ).toBe('E6106');
  });
});
