import { Injectable } from '@nestjs/common';
import type { Checkout } from '../entities/checkout.entity.js';
import type { PaymentIntent } from '../entities/payment-intent.entity.js';
import { ChargesService } from '../payments/charges.service.js';
import { TargetsService } from '../targets/targets.service.js';
import { PaymentMethodsService } from './payment-methods.service.js';

/** The saved card the hosted page offers: "Pay with Visa •••• 3155". */
export interface SavedCardOffer {
  id: string;
  brand: string;
  last4: string;
}

/**
 * The saved card to offer on a checkout opened for an off-session payment that needs
 * authentication (docs/COLLECTION.md, "Saved payment methods"): its payment intent waits in
 * `requires_action` after an attempt that failed with `authentication_required`, and that attempt's
 * card is still attached to the checkout's customer. Then the page shows one button that confirms
 * with that card (`confirm {payment_method}`), and 3-D Secure follows as for a typed card.
 * Anything else offers nothing (null). Reads only, in the mode bound.
 */
@Injectable()
export class SavedCardOffersService {
  constructor(
    private readonly targets: TargetsService,
    private readonly charges: ChargesService,
    private readonly paymentMethods: PaymentMethodsService,
  ) {}

  async offerFor(applicationId: string, checkout: Checkout): Promise<SavedCardOffer | null> {
    if (checkout.mode !== 'payment' || checkout.target_type !== 'payment_intent' || !checkout.customer_id) return null;
    const target = await this.targets.load(applicationId, 'payment_intent', checkout.target_id).catch(() => null);
    const intent = target?.record as PaymentIntent | undefined;
    if (!intent || intent.status !== 'requires_action' || !intent.latest_charge) return null;
    const charge = await this.charges.findById(applicationId, intent.latest_charge);
    if (!charge?.payment_method_id || charge.failure_code !== 'authentication_required') return null;
    const pm = await this.paymentMethods
      .attachedTo(applicationId, checkout.customer_id, charge.payment_method_id)
      .catch(() => null);
    if (!pm?.brand || !pm.last4) return null;
    return { id: pm.id, brand: pm.brand, last4: pm.last4 };
  }
}
