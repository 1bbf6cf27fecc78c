import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Hook } from '../../../common/hooks/hook.js';
import type { Invoice } from '../entities/invoice.entity.js';

/**
 * An invoice left `draft`: finalized by the merchant (`POST /invoices/:id/finalize`) or by billing's
 * period close. Emitted in the finalizing transaction with the invoice locked, after its
 * `invoice.finalized` event was recorded, so a listener's writes commit or roll back with it.
 * Listeners must not call providers here (no external call under a row lock): billing's collection
 * registers to schedule the invoice's first payment attempt, which its job makes after commit.
 */
export interface InvoiceFinalized {
  invoice: Invoice;
  manager: EntityManager;
}

/** An invoice was paid (a checkout, or an off-session attempt), in the paying transaction, after `invoice.paid`. */
export interface InvoicePaid {
  invoice: Invoice;
  manager: EntityManager;
}

@Injectable()
export class InvoiceHooks {
  readonly finalized = new Hook<InvoiceFinalized>();
  /** Billing's collection moves the invoice's subscription (first_invoice_paid, payment_succeeded) here. */
  readonly paid = new Hook<InvoicePaid>();
}
