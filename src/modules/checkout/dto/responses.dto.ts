import { ApiProperty } from '@nestjs/swagger';
import { ChargeDto, PaymentMethodDto } from './charge.dto.js';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../common/http/examples.js';
import { PAYMENT_METHOD_TYPES } from '../../../providers/ports/collection.port.js';

const OBJECT = { type: 'object', additionalProperties: true } as const;

class TransferDataDto {
  @ApiProperty({ example: UUID }) destination: string;
}

class PaymentErrorDto {
  @ApiProperty({ example: 'card_declined' }) code: string;
  @ApiProperty({ example: 'Your card was declined.' }) message: string;
  @ApiProperty({ example: UUID }) charge: string;
  @ApiProperty({ example: 'insufficient_funds', nullable: true, required: false }) decline_code: string;
}

class RedirectToUrlDto {
  @ApiProperty({ example: 'https://pay.example/checkout/acme/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b#session=wss_…' })
  url: string;
  @ApiProperty({ example: null, nullable: true }) return_url: string;
}

class IntentNextActionDto {
  @ApiProperty({ enum: ['redirect_to_url'] }) type: string;
  @ApiProperty({ type: RedirectToUrlDto }) redirect_to_url: RedirectToUrlDto;
}

export class PaymentIntentDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'payment_intent' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({
    enum: ['requires_payment_method', 'requires_action', 'processing', 'requires_capture', 'succeeded', 'canceled'],
  })
  status: string;
  @ApiProperty({ example: 125000 }) amount: number;
  @ApiProperty({ example: 0 }) amount_received: number;
  @ApiProperty({
    example: 0,
    description: 'Held at the provider by an authorization (status `requires_capture`), until captured or voided.',
  })
  amount_capturable: number;
  @ApiProperty({ enum: ['automatic', 'manual'] }) capture_method: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: UUID, nullable: true }) customer_id: string;
  @ApiProperty({ example: 'Order 1001', nullable: true }) description: string;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ example: ['card', 'promptpay'], enum: PAYMENT_METHOD_TYPES, isArray: true })
  payment_method_types: string[];
  @ApiProperty({ type: TransferDataDto, nullable: true }) transfer_data: TransferDataDto;
  @ApiProperty({ example: 0 }) application_fee_amount: number;
  @ApiProperty({ example: null, nullable: true }) latest_charge: string;
  @ApiProperty({
    example: null,
    nullable: true,
    description: 'The saved payment method the intent was confirmed with (off-session).',
  })
  payment_method: string;
  @ApiProperty({
    type: IntentNextActionDto,
    nullable: true,
    description: 'With status `requires_action`: the page where the customer completes 3-D Secure.',
  })
  next_action: IntentNextActionDto;
  @ApiProperty({ type: PaymentErrorDto, nullable: true }) last_payment_error: PaymentErrorDto;
  @ApiProperty({ example: null, nullable: true }) cancellation_reason: string;
  @ApiProperty({ example: null, nullable: true }) canceled_at: string;
  @ApiProperty({ example: null, nullable: true }) succeeded_at: string;
  @ApiProperty(OBJECT) metadata: Record<string, unknown>;
  @ApiProperty({ example: [] }) labels: string[];
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
}

class InvoiceLineDto {
  @ApiProperty({ example: 'Consulting, March' }) description: string;
  @ApiProperty({ example: 50000 }) amount: number;
  @ApiProperty({ example: 2 }) quantity: number;
  @ApiProperty({ example: 100000 }) total: number;
}

export class InvoiceDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'invoice' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'INV-20261122-7K3M9QXA' }) number: string;
  @ApiProperty({ enum: ['draft', 'open', 'paid', 'void'] }) status: string;
  @ApiProperty({ example: UUID }) customer_id: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ example: null, nullable: true }) description: string;
  @ApiProperty({ type: [InvoiceLineDto] }) line_items: InvoiceLineDto[];
  @ApiProperty({ example: 100000 }) subtotal: number;
  @ApiProperty({ example: 100000 }) total: number;
  @ApiProperty({
    example: 0,
    description:
      'Prepaid credit a subscription invoice drew when it was finalized (docs/BILLING.md, "Credit on the invoice").',
  })
  credit_applied: number;
  @ApiProperty({
    example: 100000,
    description: 'What is collected: `total` - `credit_applied`, never below 0 (0 once void).',
  })
  amount_due: number;
  @ApiProperty({ example: 0 }) amount_paid: number;
  @ApiProperty({ example: 100000 }) amount_remaining: number;
  @ApiProperty({ example: null, nullable: true }) due_date: string;
  @ApiProperty({
    example: ['card', 'promptpay'],
    enum: PAYMENT_METHOD_TYPES,
    isArray: true,
    description:
      'The types a checkout of the invoice may offer. A subscription invoice takes the registry’s defaults for its ' +
      'country and currency that the country’s provider collects; finalizing keeps those that can collect the amount due, ' +
      'and a checkout offers only those that can collect the amount due when it opens (docs/BILLING.md).',
  })
  payment_method_types: string[];
  @ApiProperty({ type: TransferDataDto, nullable: true }) transfer_data: TransferDataDto;
  @ApiProperty({ example: 0 }) application_fee_amount: number;
  @ApiProperty({ example: null, nullable: true }) charge_id: string;
  @ApiProperty({ example: false }) paid: boolean;
  @ApiProperty({ example: null, nullable: true }) finalized_at: string;
  @ApiProperty({ example: null, nullable: true }) paid_at: string;
  @ApiProperty({ example: null, nullable: true }) voided_at: string;
  @ApiProperty({ example: null, nullable: true, description: 'The subscription it bills, if any.' })
  subscription: string;
  @ApiProperty({
    example: 'subscription_cycle',
    nullable: true,
    enum: ['subscription_create', 'subscription_cycle', 'subscription_update', 'subscription_cancel', 'manual'],
    description:
      'Why a subscription invoice was made: `subscription_create` (its first), `subscription_cycle` (a period closed).',
  })
  billing_reason: string;
  @ApiProperty({
    example: null,
    nullable: true,
    format: 'date-time',
    description: 'A subscription invoice: start of the period whose usage it bills (docs/BILLING.md).',
  })
  period_start: string;
  @ApiProperty({ example: null, nullable: true, format: 'date-time', description: 'End of that period (exclusive).' })
  period_end: string;
  @ApiProperty({
    enum: ['charge_automatically', 'send_invoice'],
    nullable: true,
    example: 'charge_automatically',
    description:
      "How a subscription's invoice is collected (the subscription's setting): its default payment method charged " +
      'off-session with retries, or a hosted invoice page the customer pays by its due_date. Null on one-off invoices.',
  })
  collection_method: string;
  @ApiProperty({ example: 0, description: 'Off-session payment attempts made so far.' }) attempt_count: number;
  @ApiProperty({ example: false, description: 'Whether an off-session attempt was made.' }) attempted: boolean;
  @ApiProperty({
    example: null,
    nullable: true,
    description: "When the next off-session attempt is due (the customer's clock); null when none is scheduled.",
  })
  next_payment_attempt: string;
  @ApiProperty({ example: 0, description: "Refunded of the invoice's charge, in minor units." })
  amount_refunded: number;
  @ApiProperty({
    example: null,
    nullable: true,
    description: 'The hosted invoice page (send_invoice): lines, tax, and payment by PromptPay or card.',
  })
  hosted_invoice_url: string;
  @ApiProperty(OBJECT) metadata: Record<string, unknown>;
  @ApiProperty({ example: [] }) labels: string[];
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
}

export class CheckoutDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'checkout' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({
    example: `https://wallet.example/pay/demo/checkouts/${UUID}#session=wss_…`,
    description: 'The hosted page; in the creation response its fragment carries the session.',
  })
  url: string;
  @ApiProperty({
    example: 'wss_…',
    nullable: true,
    description: 'The one-time session (X-Session-Token) of the page: shown once, at creation; null afterwards.',
  })
  session: string;
  @ApiProperty({ enum: ['open', 'complete', 'expired'] }) status: string;
  @ApiProperty({ enum: ['unpaid', 'paid', 'no_payment_required'] }) payment_status: string;
  @ApiProperty({ enum: ['invoice', 'payment_intent', 'customer'] }) target_type: string;
  @ApiProperty({ example: UUID }) target_id: string;
  @ApiProperty({ example: null, nullable: true }) payment_link_id: string;
  @ApiProperty({ example: 125000 }) amount: number;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: UUID, nullable: true }) customer_id: string;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ type: TransferDataDto, nullable: true }) transfer_data: TransferDataDto;
  @ApiProperty({ example: 0 }) application_fee_amount: number;
  @ApiProperty({ example: ['card', 'promptpay'], enum: PAYMENT_METHOD_TYPES, isArray: true })
  payment_method_types: string[];
  @ApiProperty({ example: 'https://shop.example/thanks', nullable: true }) success_url: string;
  @ApiProperty({ example: 'https://shop.example/cart', nullable: true }) cancel_url: string;
  @ApiProperty({ example: 'payment' }) mode: string;
  @ApiProperty({ example: [] }) line_items: Array<{ price: string; quantity: number }>;
  @ApiProperty({ example: false }) allow_promotion_codes: boolean;
  @ApiProperty({ example: null, nullable: true }) payment_method_collection: string;
  @ApiProperty({ ...OBJECT, nullable: true }) subscription_data: Record<string, unknown>;
  @ApiProperty({ example: null, nullable: true }) charge_id: string;
  @ApiProperty({ example: null, nullable: true, description: 'Mode `setup`: the payment method it saved.' })
  setup_payment_method: string;
  @ApiProperty({ example: null, nullable: true, description: 'Mode `subscription`: the subscription it opened.' })
  subscription: string;
  @ApiProperty({
    example: null,
    nullable: true,
    description: 'Mode `subscription`: the first invoice it collects (null for a trial).',
  })
  invoice: string;
  @ApiProperty(OBJECT) metadata: Record<string, unknown>;
  @ApiProperty({ example: TS }) expires_at: string;
  @ApiProperty({ example: null, nullable: true }) completed_at: string;
  @ApiProperty({ example: null, nullable: true }) expired_at: string;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
}

export class CheckoutPaymentDto {
  @ApiProperty({ example: 'checkout_payment' }) object: string;
  @ApiProperty({ type: CheckoutDto }) checkout: CheckoutDto;
  @ApiProperty({ type: ChargeDto }) charge: ChargeDto;
  @ApiProperty({ example: 'https://shop.example/thanks', nullable: true }) redirect_url: string;
}

export class CheckoutSetupDto {
  @ApiProperty({ example: 'checkout_setup' }) object: string;
  @ApiProperty({ type: CheckoutDto }) checkout: CheckoutDto;
  @ApiProperty({ type: PaymentMethodDto }) payment_method: PaymentMethodDto;
  @ApiProperty({ example: 'https://shop.example/thanks', nullable: true }) redirect_url: string;
}

export class PaymentLinkDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'payment_link' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: `https://wallet.example/pay/demo/links/${UUID}` }) url: string;
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ enum: ['invoice', 'payment_intent'] }) target_type: string;
  @ApiProperty({ example: UUID }) target_id: string;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ example: null, nullable: true }) success_url: string;
  @ApiProperty({ example: null, nullable: true }) cancel_url: string;
  @ApiProperty(OBJECT) metadata: Record<string, unknown>;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
}

export class HoldReleaseDto {
  @ApiProperty({ example: 'hold_release' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 3, description: 'How many held entries were released.' }) released: number;
  @ApiProperty({ example: TS }) released_at: string;
}

class CardTokenCardDto {
  @ApiProperty({ example: 'visa' }) brand: string;
  @ApiProperty({ example: '4242' }) last4: string;
  @ApiProperty({ example: 12 }) exp_month: number;
  @ApiProperty({ example: 2030 }) exp_year: number;
  @ApiProperty({ example: 'Xt5EWLLDS7FJjR1c', description: 'Same card, same application: same fingerprint.' })
  fingerprint: string;
  @ApiProperty({ example: 'Somchai Jaidee', nullable: true }) name: string;
}

export class CardTokenDto {
  @ApiProperty({ example: 'tok_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'token' }) object: string;
  @ApiProperty({ example: 'card' }) type: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: false, description: 'Single use: true once a payment used it.' }) used: boolean;
  @ApiProperty({ type: CardTokenCardDto }) card: CardTokenCardDto;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) expires_at: string;
}
