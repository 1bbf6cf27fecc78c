import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
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
/** A payment method named as a customer's `invoice_settings.default_payment_method`. */
export interface DefaultPaymentMethodChosen {
  applicationId: string;
  customerId: string;
  paymentMethodId: string;
  /** The customer update's transaction: the listener locks the payment method in it. */
  manager: EntityManager;
}

/**
 * `defaultPaymentMethod`: the checkout module (which owns payment methods) refuses, by throwing its
 * catalog error, a payment method that is not attached to that customer, and holds it locked until
 * the update commits so a detach cannot slip in between (docs/COLLECTION.md, "Saved payment methods").
 */
@Injectable()
export class CustomerHooks {
  readonly created = new Hook<CustomerCreated>();
  readonly defaultPaymentMethod = new Hook<DefaultPaymentMethodChosen>();
}
