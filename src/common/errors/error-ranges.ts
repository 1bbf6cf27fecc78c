/**
 * Who may define which error codes. The first digit is the group of decisions.md (it also names
 * the `i18n_key` prefix); inside a group each owner has its own ranges of code numbers (the digits after the E), so two teams never take the
 * same code. A module adding codes declares them with `defineErrors('<owner>', {...})`; a code
 * outside the owner's ranges fails at load (and so in every test run). New modules: take a free
 * range below and add it here in the same change as the module.
 *
 * | owner      | ranges                               | group                         |
 * |------------|--------------------------------------|-------------------------------|
 * | core       | 1200-1219, 1300-1399, 2000-2999, 3000-3999, 4000-4999, 5000-5099, 6422 | the catalog's own |
 * | auth       | 1220-1225                          | auth                          |
 * | users      | 1226-1239                          | auth                          |
 * | access     | 1240-1269 (restricted keys, roles) | auth                          |
 * | audit      | 1270-1289 (the audit log)          | auth                          |
 * | webhooks   | 5100-5199 (events module: webhook endpoints) | dependency failures   |
 * | provider-events | 5200-5299 (inbound provider webhooks) | dependency failures |
 * | files      | 5300-5349 (uploads; the group's number only) | dependency failures |
 * | accounts   | 6000-6099                          | payouts                       |
 * | payouts    | 6100-6299, 6300-6399 (payouts lifecycle, reserved) | payouts      |
 * | checkout   | 7000-7499                          | collection                    |
 * | refunds    | 7500-7599 (reserved)               | collection                    |
 * | billing    | 7600-7899 (catalog 7600-7699, subscriptions and test clocks 7700-7799, invoicing 7800-7899) | collection |
 * | reporting  | 7900-7949 (report runs)          | collection                    |
 * | reconciliation | 7960-7979 (settlement reconciliation) | collection          |
 * | meter      | 8000-8099                          | metering                      |
 * | ledger     | 9000-9099                          | ledger                        |
 * | disputes   | 9500-9599                          | ledger and disputes           |
 * Free for modules not listed: 1290-1299, 5350-5999, 6400-6999 (but 6422), 7950-7959, 7980-7999,
 * 8100-8999, 9100-9499, 9600-9999.
 */
export const ERROR_RANGES: Record<string, Array<[number, number]>> = {
  core: [
    [1200, 1219],
    [1300, 1399],
    [2000, 2999],
    [3000, 3999],
    [4000, 4999],
    [5000, 5099],
    [6422, 6422],
  ],
  auth: [[1220, 1225]],
  users: [[1226, 1239]],
  access: [[1240, 1269]],
  audit: [[1270, 1289]],
  webhooks: [[5100, 5199]],
  'provider-events': [[5200, 5299]],
  files: [[5300, 5349]],
  accounts: [[6000, 6099]],
  payouts: [
    [6100, 6299],
    [6300, 6399],
  ],
  checkout: [[7000, 7499]],
  refunds: [[7500, 7599]],
  billing: [[7600, 7899]],
  reporting: [[7900, 7949]],
  reconciliation: [[7960, 7979]],
  meter: [[8000, 8099]],
  ledger: [[9000, 9099]],
  disputes: [[9500, 9599]],
};

export type ErrorOwner = keyof typeof ERROR_RANGES;

/** Whether `code` (E + four digits) lies in one of `owner`'s ranges. */
export function ownsCode(owner: string, code: string): boolean {
  const n = Number(code.slice(1));
  return (ERROR_RANGES[owner] ?? []).some(([from, to]) => n >= from && n <= to);
}
