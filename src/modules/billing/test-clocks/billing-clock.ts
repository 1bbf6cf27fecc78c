import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { TestClocksRepository } from './test-clocks.repository.js';

/** What the billing clock needs of a customer (or of a subscription, which copies its customer's clock). */
export interface OnClock {
  application_id: string;
  test_clock_id: string | null;
}

/**
 * The one answer to "what time is it for this customer": the frozen_time of the customer's test
 * clock when it lives on one (test mode), the service Clock otherwise. Periods, trials and every
 * other time-driven step of billing ask here, never the service clock directly.
 */
@Injectable()
export class BillingClock {
  constructor(
    private readonly clock: Clock,
    private readonly clocks: TestClocksRepository,
  ) {}

  async nowFor(customer: OnClock, manager?: EntityManager): Promise<Date> {
    if (!customer.test_clock_id) return this.clock.now();
    const testClock = await this.clocks.find(customer.application_id, customer.test_clock_id, manager);
    // A deleted clock detached its customers; a subscription still naming it is canceled, and final.
    return testClock ? testClock.frozen_time : this.clock.now();
  }
}
