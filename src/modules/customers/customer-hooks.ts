import { Injectable } from '@nestjs/common';
import { Hook } from '../../common/hooks/hook.js';
import type { Customer } from './entities/customer.entity.js';

/** A stored new customer, with what listeners need of the creating request. */
export interface CustomerCreated {
  customer: Customer;
  /** The creating request's country (X-Country), if it sent one. */
  country: string | undefined;
}

/**
 * Modules that keep something per customer (the billing provider's customer reference) register
 * here in their `onModuleInit`, so customers depend on none of them. Listeners run after the
 * customer is stored, in the creating request's mode, and get the customer and the request's
 * country from the caller (never from the request context).
 */
@Injectable()
export class CustomerHooks {
  readonly created = new Hook<CustomerCreated>();
}
