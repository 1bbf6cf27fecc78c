import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import type { Charge } from './entities/charge.entity.js';
import type { PaymentMethod } from './entities/payment-method.entity.js';
import { LedgerRepository } from './ledger.repository.js';
import { toChargeResponse, toPaymentMethodResponse, type ChargeResponse } from './ledger.responses.js';

/**
 * Storage of charges and payment methods for the collection and disputes modules. The ledger owns
 * the tables because postings refer to them; business rules about charges live in collection.
 */
@Injectable()
export class LedgerChargesService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
  ) {}

  /** Inserts a charge; `application_id`, `status`, `currency` and `amount` are required. */
  create(charge: Partial<Charge>, manager?: EntityManager): Promise<Charge> {
    const now = this.clock.now();
    return this.ledger.insertCharge({ id: newId(), created_at: now, updated_at: now, ...charge }, manager);
  }

  update(applicationId: string, id: string, changes: Partial<Charge>, manager?: EntityManager): Promise<Charge | null> {
    return this.ledger.updateCharge(applicationId, id, { ...changes, updated_at: this.clock.now() }, manager);
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<Charge | null> {
    return this.ledger.findCharge(applicationId, id, manager);
  }

  /** findById that also locks the charge (FOR UPDATE) until `manager`'s transaction ends. */
  lockById(applicationId: string, id: string, manager: EntityManager): Promise<Charge | null> {
    return this.ledger.findCharge(applicationId, id, manager, true);
  }

  createPaymentMethod(pm: Partial<PaymentMethod>, manager?: EntityManager): Promise<PaymentMethod> {
    const now = this.clock.now();
    return this.ledger.insertPaymentMethod({ id: newId(), created_at: now, updated_at: now, ...pm }, manager);
  }

  findPaymentMethodById(applicationId: string, id: string, manager?: EntityManager): Promise<PaymentMethod | null> {
    return this.ledger.findPaymentMethod(applicationId, id, manager);
  }

  /** The charge record with its customer, payment method and balance embedded (invoice: given, else null). */
  async toResponse(charge: Charge, invoice: Record<string, unknown> | null = null): Promise<ChargeResponse> {
    return (await this.toResponses([charge], () => invoice))[0];
  }

  /** Batch form of toResponse for lists: a fixed number of queries whatever the page size. */
  async toResponses(
    charges: Charge[],
    invoiceOf: (charge: Charge) => Record<string, unknown> | null = () => null,
  ): Promise<ChargeResponse[]> {
    if (charges.length === 0) return [];
    const app = charges[0].application_id;
    // The payment methods and then their customers, and the balances, on two connections at once.
    const [{ pms, customers }, balances] = await Promise.all([
      (async () => {
        const pms = await this.ledger.paymentMethodsById(
          app,
          charges.map((c) => c.payment_method_id),
        );
        const customers = await this.ledger.customersById(app, [
          ...charges.map((c) => c.customer_id),
          ...[...pms.values()].map((pm) => pm.customer_id),
        ]);
        return { pms, customers };
      })(),
      this.ledger.balanceResponses(
        app,
        charges.map((c) => c.balance_id),
      ),
    ]);
    return charges.map((charge) => {
      const pm = pms.get(charge.payment_method_id ?? '');
      return toChargeResponse(charge, {
        customer: customers.get(charge.customer_id ?? '') ?? null,
        payment_method: pm ? toPaymentMethodResponse(pm, customers.get(pm.customer_id ?? '') ?? null) : null,
        balance: balances.get(charge.balance_id ?? '') ?? null,
        invoice: invoiceOf(charge),
      });
    });
  }

  /** Charges of this application by id (for embedding in other records). */
  chargesById(applicationId: string, ids: string[]): Promise<Map<string, Charge>> {
    return this.ledger.chargesById(applicationId, ids);
  }
}
