import { Injectable } from '@nestjs/common';
import type { Customer } from './entities/customer.entity.js';

/** A stored new customer, with what listeners need of the creating request. */
export interface CustomerCreated {
  customer: Customer;
  /** The creating request's country (X-Country), if it sent one. */
  country: string | undefined;
}

export type CustomerCreatedListener = (event: CustomerCreated) => Promise<void>;

/**
 * Modules that keep something per customer (the billing provider's customer reference) register
 * here in their `onModuleInit`, so customers depend on none of them. Listeners run after the
 * customer is stored, in the creating request's mode, and get the customer and the request's
 * country from the caller (never from the request context).
 */
@Injectable()
export class CustomerHooks {
  private readonly listeners: CustomerCreatedListener[] = [];

  onCustomerCreated(listener: CustomerCreatedListener): void {
    this.listeners.push(listener);
  }

  async customerCreated(event: CustomerCreated): Promise<void> {
    for (const listener of this.listeners) await listener(event);
  }
}
