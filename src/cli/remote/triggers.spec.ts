import { SANDBOX_REFUSED_IDENTIFIER_PREFIX } from '../../modules/meter/providers/sandbox-billing.provider.js';
import { FAILING_LAST4, HELD_LAST4 } from '../../modules/payouts/providers/sandbox-transfer.provider.js';
import {
  SANDBOX_HELD_ACCOUNT_SUFFIX,
  SANDBOX_REFUSED_METER_EVENT_PREFIX,
  SANDBOX_SENT_ACCOUNT_SUFFIX,
} from './triggers.js';

/**
 * The recipes know the sandbox's documented behaviours as a partner does (from docs/), not by
 * importing the service: these keep the two in step.
 */
describe('events:trigger recipes and the sandbox', () => {
  it('hold transfers to the account suffix the sandbox holds, and send those to one it neither holds nor fails', () => {
    expect(SANDBOX_HELD_ACCOUNT_SUFFIX).toBe(HELD_LAST4);
    expect(Object.keys(FAILING_LAST4)).not.toContain(SANDBOX_SENT_ACCOUNT_SUFFIX);
    expect(SANDBOX_SENT_ACCOUNT_SUFFIX).not.toBe(HELD_LAST4);
  });

  it('name meter events with the identifier prefix the sandbox billing provider refuses for good', () => {
    expect(SANDBOX_REFUSED_METER_EVENT_PREFIX).toBe(SANDBOX_REFUSED_IDENTIFIER_PREFIX);
  });
});
