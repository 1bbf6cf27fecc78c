import { describeForLog, isDatabaseUnavailable } from './error.filter.js';

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

describe('isDatabaseUnavailable', () => {
  const pgError = (code: string) => Object.assign(new Error('server said no'), { code });
  it.each([
    ['admin shutdown 57P01', pgError('57P01')],
    ['crash shutdown 57P02', pgError('57P02')],
    ['cannot connect now 57P03', pgError('57P03')],
    ['connection failure 08006', pgError('08006')],
    ['too many connections 53300 (sorry, too many clients already)', pgError('53300')],
    ['out of memory 53200', pgError('53200')],
    ['a refused connection', pgError('ECONNREFUSED')],
    ['a reset connection', pgError('ECONNRESET')],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    [
      "a transaction whose connection died mid-way (TypeORM's released query runner)",
      Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), {
        name: 'QueryRunnerAlreadyReleasedError',
      }),
    ],
    [
      "a statement sent through a transaction's manager after its connection died and was released",
      Object.assign(
        new Error(
          'Database connection provided by a query runner was already released, cannot continue to use its querying methods anymore.',
        ),
        { name: 'QueryRunnerProviderAlreadyReleasedError' },
      ),
    ],
    [
      "TypeORM's wrapper around a driver error",
      Object.assign(new Error('query failed'), { driverError: pgError('57P01') }),
    ],
    ['a cause chain', new Error('outer', { cause: new Error('Connection terminated') })],
    ['an AggregateError of refused addresses', new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')])],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['a syntax error', pgError('42601')],
    ['a plain error', new Error('boom')],
    ['a non-error', 'Connection terminated'],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
