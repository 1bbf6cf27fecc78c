import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { AccountsService } from '../../accounts/index.js';
import { CustomersService, type Customer } from '../../customers/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { currencyAllowedIn } from '../checkout-rules.js';
import { type PaymentMethodType } from '../../../providers/ports/collection.port.js';
import type { TargetType } from '../entities/checkout.entity.js';
import { invoiceAmountDue, type Invoice } from '../entities/invoice.entity.js';
import type { PaymentIntent } from '../entities/payment-intent.entity.js';
import { InvoicesRepository } from './invoices.repository.js';
import { PaymentIntentsRepository } from './payment-intents.repository.js';

export type Target = { type: 'payment_intent'; record: PaymentIntent } | { type: 'invoice'; record: Invoice };

/** What a checkout collects, all of it taken from its target. */
export interface CollectionTerms {
  amount: number;
  currency: string;
  scaling_factor: number;
  customer_id: string | null;
  transfer_destination: string | null;
  application_fee_amount: number;
  payment_method_types: PaymentMethodType[];
}

/**
 * The collection targets (payment intents and invoices) as checkouts, payment links and payments
 * see them: loading, payability, the terms to collect, and the rules on customers and transfer
 * destinations that creating a target and paying it share.
 */
@Injectable()
export class TargetsService {
  constructor(
    private readonly paymentIntents: PaymentIntentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly customers: CustomersService,
    private readonly accounts: AccountsService,
  ) {}

  /** The target of this application and mode, or E7001 (a non-UUID id is unknown, too). */
  async load(
    applicationId: string,
    type: TargetType,
    id: string,
    manager?: EntityManager,
    lock = false,
  ): Promise<Target> {
    if (type === 'payment_intent') {
      const record = await this.paymentIntents.findById(applicationId, id, manager, lock);
      if (record) return { type, record };
    } else {
      const record = await this.invoices.findById(applicationId, id, manager, lock);
      if (record) return { type, record };
    }
    throw new AppError(CheckoutErrors.E7001, `No ${type} with id "${id}".`);
  }

  /** The line under the amount on the hosted page: the invoice's number, or the payment intent's description. */
  async description(applicationId: string, type: TargetType, id: string): Promise<string | null> {
    if (type === 'invoice') {
      const invoice = await this.invoices.findById(applicationId, id);
      return invoice ? `Invoice ${invoice.number}` : null;
    }
    return (await this.paymentIntents.findById(applicationId, id))?.description ?? null;
  }

  /** The invoice a charge paid (or tried to), or null. */
  findInvoice(applicationId: string, id: string, manager?: EntityManager): Promise<Invoice | null> {
    return this.invoices.findById(applicationId, id, manager);
  }

  /** The invoices of `ids` (nulls skipped), by id. */
  invoicesByIds(applicationId: string, ids: ReadonlyArray<string | null>): Promise<Map<string, Invoice>> {
    return this.invoices.byIds(applicationId, ids);
  }

  /** Refuses a target that cannot be paid now (paid, void, canceled, draft) or not in `country`. */
  assertPayable(target: Target, country: string): void {
    const { type, record } = target;
    if (type === 'payment_intent') {
      if (record.status === 'succeeded') {
        throw new AppError(CheckoutErrors.E7002, `Payment intent "${record.id}" has already succeeded.`);
      }
      if (record.status === 'canceled') {
        throw new AppError(CheckoutErrors.E7003, `Payment intent "${record.id}" is canceled.`);
      }
    } else {
      if (record.status === 'paid') throw new AppError(CheckoutErrors.E7002, `Invoice "${record.id}" is paid.`);
      if (record.status === 'void') throw new AppError(CheckoutErrors.E7003, `Invoice "${record.id}" is void.`);
      if (record.status === 'draft') {
        throw new AppError(CheckoutErrors.E7003, `Invoice "${record.id}" is a draft: finalize it first.`);
      }
    }
    if (!currencyAllowedIn(country, record.currency)) {
      throw new AppError(
        CheckoutErrors.E7004,
        `The ${type} is in ${record.currency}, which cannot be collected in ${country}.`,
      );
    }
  }

  terms(target: Target): CollectionTerms {
    const r = target.record;
    return {
      amount: target.type === 'invoice' ? invoiceAmountDue(target.record) : Number(target.record.amount),
      currency: r.currency,
      scaling_factor: r.scaling_factor,
      customer_id: r.customer_id,
      transfer_destination: r.transfer_destination,
      application_fee_amount: Number(r.application_fee_amount),
      payment_method_types: r.payment_method_types as PaymentMethodType[],
    };
  }

  /** The customer to collect from: it exists in this application and mode, and may be charged (KYC). */
  async chargeableCustomer(scope: Scope, id: string): Promise<Customer> {
    const customer = await this.customers.find(scope.application.id, id);
    if (!customer) throw new AppError(CheckoutErrors.E7014, `No customer with id "${id}".`).on('customer_id');
    if (customer.kyc_status === 'pending' || customer.kyc_status === 'rejected') {
      throw new AppError(Errors.E1303, `Customer "${id}" has KYC status ${customer.kyc_status}.`).on('customer_id');
    }
    return customer;
  }

  /** A transfer destination must be a KYB-verified connected account of this application and mode. */
  async assertDestination(scope: Scope, id: string, manager?: EntityManager): Promise<void> {
    const account = await this.accounts.findById(scope.application.id, id, manager);
    if (!account) throw new AppError(CheckoutErrors.E7012, `No account with id "${id}".`);
    if (account.type !== 'connected') {
      throw new AppError(CheckoutErrors.E7013, `Account "${id}" is the application's own account.`);
    }
    if (account.kyb_status !== 'verified') {
      throw new AppError(Errors.E1304, `Connected account "${id}" has KYB status ${account.kyb_status}.`);
    }
  }
}
