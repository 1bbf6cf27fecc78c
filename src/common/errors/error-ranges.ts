/**
 * Who may define which error codes. The first digit is the group of decisions.md (it also names
 * the `i18n_key` prefix); inside a group each owner has its own ranges, so two teams never take the
 * same code. A module adding codes declares them with `defineErrors('<owner>', {...})`; a code
 * outside the owner's ranges fails at load (and so in every test run). New modules: take a free
 * range below and add it here in the same change as the module.
 *
 * | owner      | ranges                               | group                         |
 * |------------|--------------------------------------|-------------------------------|
 * | core       | E1200-E1219, E1300-E1399, E2000-E2999, E3000-E3999, E4000-E4999, E5000-E5099, E6422 | the catalog's own |
 * | auth       | E1220-E1225                          | auth                          |
 * | users      | E1226-E1239                          | auth                          |
 * | webhooks   | E5100-E5199 (reserved)               | dependency failures           |
 * | accounts   | E6000-E6099                          | payouts                       |
 * | payouts    | E6100-E6299, E6300-E6399 (payouts lifecycle, reserved) | payouts      |
 * | checkout   | E7000-E7499                          | collection                    |
 * | refunds    | E7500-E7599 (reserved)               | collection                    |
 * | meter      | E8000-E8099                          | metering                      |
 * | ledger     | E9000-E9099                          | ledger                        |
 * | disputes   | E9500-E9599                          | ledger and disputes           |
 * Free for modules not listed: E1240-E1299, E5200-E5999, E6400-E6999 (but E6422), E7600-E7999,
 * E8100-E8999, E9100-E9499, E9600-E9999.
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
  webhooks: [[5100, 5199]],
  accounts: [[6000, 6099]],
  payouts: [
    [6100, 6299],
    [6300, 6399],
  ],
  checkout: [[7000, 7499]],
  refunds: [[7500, 7599]],
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
