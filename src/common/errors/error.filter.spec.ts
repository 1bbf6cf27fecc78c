import { describeForLog } from './error.filter.js';

describe('describeForLog', () => {
  it('keeps name, message, code and stack but never driver parameters or row details', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "bank_accounts_pkey"'), {
      name: 'QueryFailedError',
      code: '23505',
      query: 'INSERT INTO bank_accounts (account_number) VALUES ($1)',
      parameters: ['1234567890'],
      detail: 'Key (account_number)=(1234567890) already exists.',
    });
    const logged = JSON.stringify(describeForLog(error));
    expect(logged).toContain('QueryFailedError');
    expect(logged).toContain('23505');
    expect(logged).not.toContain('1234567890');
    expect(logged).not.toContain('INSERT INTO');
  });

  it('says nothing about non-errors but their type', () => {
    expect(describeForLog({ secret: 'sk_live_x' })).toEqual({ value: 'object' });
  });
});
