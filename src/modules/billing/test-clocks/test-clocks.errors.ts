import { defineErrors } from '../../../common/errors/error-catalog.js';

/** Test clock codes: 7700-7709 of billing's subscriptions and test clocks range (7700-7799). */
export const TestClockErrors = defineErrors('billing', {
  E7700: {
    key: 'test_clock_frozen_time_invalid',
    http_status: 400,
    message: 'A test clock can only move forward: frozen_time must be after its current frozen_time.',
  },
  E7701: {
    key: 'test_clock_advance_too_far',
    http_status: 400,
    message: 'A test clock advances at most two years at a time.',
  },
  E7702: {
    key: 'test_clock_advancing',
    http_status: 409,
    message: 'The test clock is advancing; wait until its status is ready.',
  },
  E7703: {
    key: 'test_clock_not_found',
    http_status: 400,
    message: 'No test clock with this id in this application (test mode).',
  },
  E7704: {
    key: 'test_clock_live_mode',
    http_status: 400,
    message: 'Test clocks exist in test mode only: a live customer cannot have a test_clock.',
  },
});
