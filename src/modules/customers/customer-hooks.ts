import { Injectable } from '@nestjs/common';
import type { Customer } from './entities/customer.entity.js';

export type CustomerCreatedListener = (customer: Customer) => Promise<void>;

/**
 * Modules that keep something per customer (the billing provider's customer reference) register
 * here in their `onModuleInit`, so customers depend on none of them. Listeners run in the creating
 * request's context, after the customer is stored.
 */
@Injectable()
export class CustomerHooks {
  private readonly listeners: CustomerCreatedListener[] = [];

  onCustomerCreated(listener: CustomerCreatedListener): void {
    this.listeners.push(listener);
  }

  async customerCreated(customer: Customer): Promise<void> {
    for (const listener of this.listeners) await listener(customer);
  }
}
