import { ApiProperty } from '@nestjs/swagger';

/** What a provider posts (its own event shape; only what the service reads is described). */
export class OpnWebhookBodyDto {
  @ApiProperty({ example: 'event', description: 'Always `event`.' })
  object!: string;

  @ApiProperty({
    example: 'evnt_test_5xuy4w91r3h8wm1ktal',
    description:
      'The Opn event id: the only field read from the body. The event is read back from Opn with the mode’s secret key (`evnt_test_…`: test mode).',
  })
  id!: string;
}

export class StripeWebhookBodyDto {
  @ApiProperty({ example: 'evt_1Nj8WbLkdIwHu7ix0jHZ8cbS', description: 'The Stripe event id.' })
  id!: string;

  @ApiProperty({ example: 'event', description: 'Always `event`.' })
  object!: string;

  @ApiProperty({ example: 'payment_intent.succeeded', description: 'The event type.' })
  type!: string;

  @ApiProperty({
    example: false,
    description: 'Picks the webhook secret (test or live) the signature must verify with.',
  })
  livemode!: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The object the event is about (`data.object`).',
    example: { object: { id: 'pi_3Nj8WbLkdIwHu7ix1pSBWxMq', object: 'payment_intent', status: 'succeeded' } },
  })
  data!: Record<string, unknown>;
}

export class ProviderWebhookReceiptDto {
  @ApiProperty({ enum: ['provider_event'], example: 'provider_event' })
  object!: 'provider_event';

  @ApiProperty({ enum: ['opn', 'stripe'], example: 'opn' })
  provider!: string;

  @ApiProperty({ example: 'evnt_test_5xuy4w91r3h8wm1ktal', description: 'The provider’s event id.' })
  id!: string;

  @ApiProperty({ example: 'charge.complete', description: 'The provider’s event kind.' })
  kind!: string;

  @ApiProperty({ example: false })
  livemode!: boolean;

  @ApiProperty({
    enum: ['applied', 'unchanged', 'duplicate', 'unmatched', 'ignored'],
    example: 'applied',
    description:
      '`applied`: the charge, refund or payout changed; `unchanged`: nothing to change; `duplicate`: the event was applied before; `unmatched`: no object has that reference; `ignored`: a kind the service does not act on.',
  })
  result!: string;
}
