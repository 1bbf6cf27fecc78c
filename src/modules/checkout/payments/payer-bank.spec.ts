import { AppError } from '../../../common/errors/app-error.js';
import { payerBankOf } from './payer-bank.js';

describe('payerBankOf', () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof AppError ? { code: err.definition.code, param: err.param } : err;
    }
    return null;
  };

  it('FPX takes one of its banks', () => {
    expect(payerBankOf('fpx', 'maybank2u')).toBe('maybank2u');
    expect(payerBankOf('fpx', 'public_bank')).toBe('public_bank');
  });

  it('FPX without a bank, or with one it does not list, is E7450 naming bank', () => {
    expect(refusal(() => payerBankOf('fpx', undefined))).toEqual({ code: 'E7450', param: 'bank' });
    expect(refusal(() => payerBankOf('fpx', 'kbank'))).toEqual({ code: 'E7450', param: 'bank' });
  });

  it('a type without a bank choice takes none: absent is null, sent is E7450', () => {
    expect(payerBankOf('paynow', undefined)).toBeNull();
    expect(payerBankOf('grabpay', undefined)).toBeNull();
    expect(payerBankOf('card', undefined)).toBeNull();
    expect(refusal(() => payerBankOf('paynow', 'maybank2u'))).toEqual({ code: 'E7450', param: 'bank' });
  });
});
