import type { OpenAPIObject } from '@nestjs/swagger';
import { EVENT_TYPES, type EventType } from './common/events/event-types.js';
import { AccountDto } from './modules/accounts/dto/account.dto.js';
import { ChargeDto, PaymentMethodDto } from './modules/checkout/index.js';
import { CheckoutDto, InvoiceDto, PaymentIntentDto } from './modules/checkout/dto/responses.dto.js';
import { DisputeDto } from './modules/disputes/dto/dispute.dto.js';
import { WebhookEndpointDto } from './modules/events/dto/webhook-endpoint.dto.js';
import { BalanceDto } from './modules/ledger/index.js';
import { ReconciliationRunDto } from './modules/reconciliation/dto/reconciliation-run.dto.js';
import { ReportRunDto } from './modules/reporting/dto/report-run.dto.js';
import { BankAccountDto } from './modules/payouts/dto/bank-account.dto.js';
import { RefundDto } from './modules/refunds/index.js';
import { PayoutDto } from './modules/payouts/index.js';
import { MeterEventDto } from './modules/meter/index.js';
import { SubscriptionDto, TestClockDto } from './modules/billing/subscriptions/index.js';
import { UpcomingInvoiceDto } from './modules/billing/invoicing/index.js';
import {
  CouponDto,
  CreditGrantDto,
  PriceDto,
  ProductDto,
  PromotionCodeDto,
  TaxRateDto,
} from './modules/billing/index.js';

/**
 * The schema of each event type's `data.object` (the record type says every type has one). Wired
 * here, in the composition root, because the events module imports no feature module.
 */
export const EVENT_PAYLOADS: Record<EventType, Function> = {
  'checkout.completed': CheckoutDto,
  'checkout.expired': CheckoutDto,
  'payment_intent.succeeded': PaymentIntentDto,
  'payment_intent.payment_failed': PaymentIntentDto,
  'payment_intent.requires_action': PaymentIntentDto,
  'payment_intent.amount_capturable_updated': PaymentIntentDto,
  'payment_intent.canceled': PaymentIntentDto,
  'payment_method.attached': PaymentMethodDto,
  'payment_method.detached': PaymentMethodDto,
  'invoice.created': InvoiceDto,
  'invoice.upcoming': UpcomingInvoiceDto,
  'invoice.finalized': InvoiceDto,
  'invoice.paid': InvoiceDto,
  'invoice.updated': InvoiceDto,
  'invoice.payment_failed': InvoiceDto,
  'charge.succeeded': ChargeDto,
  'charge.failed': ChargeDto,
  'charge.captured': ChargeDto,
  'charge.expired': ChargeDto,
  'charge.dispute.created': DisputeDto,
  'charge.dispute.updated': DisputeDto,
  'charge.dispute.closed': DisputeDto,
  'charge.refunded': ChargeDto,
  'refund.created': RefundDto,
  'refund.updated': RefundDto,
  'refund.succeeded': RefundDto,
  'refund.failed': RefundDto,
  'balance.available': BalanceDto,
  'report_run.succeeded': ReportRunDto,
  'report_run.failed': ReportRunDto,
  'reconciliation.mismatch': ReconciliationRunDto,
  'account.updated': AccountDto,
  'bank_account.created': BankAccountDto,
  'payout.created': PayoutDto,
  'payout.updated': PayoutDto,
  'payout.paid': PayoutDto,
  'payout.failed': PayoutDto,
  'payout.canceled': PayoutDto,
  'meter_event.delivery_failed': MeterEventDto,
  'test_helpers.test_clock.created': TestClockDto,
  'test_helpers.test_clock.advancing': TestClockDto,
  'test_helpers.test_clock.ready': TestClockDto,
  'test_helpers.test_clock.deleted': TestClockDto,
  'customer.subscription.created': SubscriptionDto,
  'customer.subscription.updated': SubscriptionDto,
  'customer.subscription.deleted': SubscriptionDto,
  'customer.subscription.trial_will_end': SubscriptionDto,
  'webhook_endpoint.disabled': WebhookEndpointDto,
  'product.created': ProductDto,
  'product.updated': ProductDto,
  'price.created': PriceDto,
  'price.updated': PriceDto,
  'coupon.created': CouponDto,
  'coupon.updated': CouponDto,
  'coupon.deleted': CouponDto,
  'promotion_code.created': PromotionCodeDto,
  'promotion_code.updated': PromotionCodeDto,
  'tax_rate.created': TaxRateDto,
  'tax_rate.updated': TaxRateDto,
  'billing.credit_grant.created': CreditGrantDto,
  'billing.credit_grant.voided': CreditGrantDto,
  'billing.credit_grant.expired': CreditGrantDto,
};

export const eventSchemaName = (type: string): string => `Event_${type.replaceAll('.', '_')}`;

/**
 * Adds `Event_<type>` (the event envelope with `type` fixed and `data.object` typed) for every event
 * type, `EventPayload` (their union, discriminated by `type`), and answers GET /events/{id} with it,
 * so generated clients get typed events.
 */
export function describeEventPayloads(document: OpenAPIObject): void {
  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  const refs: Record<string, string> = {};
  for (const [type, dto] of Object.entries(EVENT_PAYLOADS)) {
    const name = eventSchemaName(type);
    refs[type] = `#/components/schemas/${name}`;
    schemas[name] = {
      description: `${type}: ${EVENT_TYPES[type as EventType]}`,
      allOf: [
        { $ref: '#/components/schemas/EventDto' },
        {
          type: 'object',
          properties: {
            type: { type: 'string', enum: [type] },
            data: {
              type: 'object',
              required: ['object'],
              properties: {
                object: { $ref: `#/components/schemas/${dto.name}` },
                previous_attributes: { type: 'object', additionalProperties: true },
              },
            },
          },
        },
      ],
    };
  }
  schemas.EventPayload = {
    oneOf: Object.values(refs).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping: refs },
  };
  const retrieve = document.paths['/api/v1/{app}/platform/wallet/events/{id}']?.get;
  const ok = retrieve?.responses?.['200'] as { content?: Record<string, { schema: unknown }> } | undefined;
  if (ok?.content?.['application/json'])
    ok.content['application/json'].schema = { $ref: '#/components/schemas/EventPayload' };
}
