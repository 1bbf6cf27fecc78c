import type { TestClock } from './entities/test-clock.entity.js';

export function toTestClockResponse(c: TestClock) {
  return {
    id: c.id,
    object: 'test_helpers.test_clock' as const,
    livemode: c.livemode,
    name: c.name,
    frozen_time: c.frozen_time.toISOString(),
    status: c.status,
    status_details:
      c.status === 'advancing' && c.target_frozen_time
        ? { advancing: { target_frozen_time: c.target_frozen_time.toISOString() } }
        : {},
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export type TestClockResponse = ReturnType<typeof toTestClockResponse>;
