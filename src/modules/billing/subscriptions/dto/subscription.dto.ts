import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  IsUUID,
  Length,
  Max,
  Min,
} from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { MetadataField, NestedArray, Optional } from '../../../../common/http/fields.js';
import { SUBSCRIPTION_STATUSES } from '../subscription.transitions.js';

export const COLLECTION_METHODS = ['charge_automatically', 'send_invoice'] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];
/** What happens to a subscription when an invoice's last retry fails (docs/BILLING.md, "Collection and retries"). */
export const RETRIES_EXHAUSTED_ACTIONS = ['cancel', 'mark_unpaid'] as const;
export type RetriesExhaustedAction = (typeof RETRIES_EXHAUSTED_ACTIONS)[number];
export const PRORATION_BEHAVIORS = ['create_prorations', 'always_invoice', 'none'] as const;

export class SubscriptionItemInputDto {
  @ApiProperty({ example: EXAMPLE_ID, description: 'A recurring price of the application.' })
  @IsUUID()
  price_id: string;

  @ApiPropertyOptional({ example: 1, description: 'Licensed prices only (default 1); a metered price takes none.' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  quantity?: number;

  @MetadataField() metadata?: Record<string, unknown>;
}

/** POST /subscriptions. */
export class CreateSubscriptionDto {
  @ApiProperty({ example: EXAMPLE_ID }) @IsUUID() customer_id: string;

  @ApiProperty({ type: [SubscriptionItemInputDto] })
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @NestedArray(SubscriptionItemInputDto)
  items: SubscriptionItemInputDto[];

  @ApiPropertyOptional({ enum: COLLECTION_METHODS, example: 'charge_automatically', default: 'charge_automatically' })
  @Optional()
  @IsIn(COLLECTION_METHODS)
  collection_method?: CollectionMethod;

  @ApiPropertyOptional({ example: 30, description: 'send_invoice only: days from an invoice to its due date.' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(365)
  days_until_due?: number;

  @ApiPropertyOptional({
    example: EXAMPLE_ID,
    description:
      "A saved payment method attached to the customer, not expired (E7030 unknown, E7031 detached or another customer's, E7077 expired).",
  })
  @Optional()
  @IsString()
  @Length(1, 100)
  default_payment_method?: string;

  @ApiPropertyOptional({
    enum: RETRIES_EXHAUSTED_ACTIONS,
    default: 'cancel',
    description:
      'charge_automatically: when the last retry of an invoice fails, `cancel` the subscription (canceled) or ' +
      '`mark_unpaid` (unpaid: it stays, invoices keep coming and are not charged until one is paid).',
  })
  @Optional()
  @IsIn(RETRIES_EXHAUSTED_ACTIONS)
  retries_exhausted_action?: RetriesExhaustedAction;

  @ApiPropertyOptional({ example: 14, description: 'Whole days of trial; not with trial_end.' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(730)
  trial_period_days?: number;

  @ApiPropertyOptional({ example: '2027-01-15T00:00:00.000Z', description: 'RFC 3339; not with trial_period_days.' })
  @Optional()
  @IsISO8601({ strict: true, strictSeparator: true })
  trial_end?: string;

  @ApiPropertyOptional({
    example: '2026-12-01T00:00:00.000Z',
    description: 'RFC 3339: where periods start; within one interval after the start (or the trial end).',
  })
  @Optional()
  @IsISO8601({ strict: true, strictSeparator: true })
  billing_cycle_anchor?: string;

  @ApiPropertyOptional({ example: EXAMPLE_ID, description: 'A coupon id; not with promotion_code.' })
  @Optional()
  @IsUUID()
  coupon?: string;

  @ApiPropertyOptional({ example: EXAMPLE_ID, description: 'A promotion code id; not with coupon.' })
  @Optional()
  @IsUUID()
  promotion_code?: string;

  @ApiPropertyOptional({ example: [EXAMPLE_ID], type: [String] })
  @Optional()
  @ArrayMaxSize(5)
  @IsUUID('all', { each: true })
  default_tax_rates?: string[];

  @ApiPropertyOptional({ example: false }) @Optional() @IsBoolean() cancel_at_period_end?: boolean;

  @MetadataField({ plan: 'pro' }) metadata?: Record<string, unknown>;
}

export class SubscriptionItemUpdateDto {
  @ApiPropertyOptional({ example: EXAMPLE_ID, description: 'An item of the subscription (to change or delete).' })
  @Optional()
  @IsUUID()
  id?: string;

  @ApiPropertyOptional({ example: EXAMPLE_ID, description: 'A new item: its recurring price.' })
  @Optional()
  @IsUUID()
  price_id?: string;

  @ApiPropertyOptional({ example: 2 }) @Optional() @IsInt() @Min(0) @Max(1_000_000) quantity?: number;

  @ApiPropertyOptional({ example: false, description: 'With id: removes the item.' })
  @Optional()
  @IsBoolean()
  deleted?: boolean;

  @MetadataField() metadata?: Record<string, unknown>;
}

/** POST /subscriptions/{id}. */
export class UpdateSubscriptionDto {
  @ApiPropertyOptional({ type: [SubscriptionItemUpdateDto] })
  @Optional()
  @ArrayMaxSize(20)
  @NestedArray(SubscriptionItemUpdateDto)
  items?: SubscriptionItemUpdateDto[];

  @ApiPropertyOptional({ enum: PRORATION_BEHAVIORS, example: 'create_prorations', default: 'create_prorations' })
  @Optional()
  @IsIn(PRORATION_BEHAVIORS)
  proration_behavior?: (typeof PRORATION_BEHAVIORS)[number];

  @ApiPropertyOptional({ example: true }) @Optional() @IsBoolean() cancel_at_period_end?: boolean;

  @ApiPropertyOptional({
    example: EXAMPLE_ID,
    description: 'A saved payment method attached to the customer, not expired (E7030, E7031, E7077).',
  })
  @Optional()
  @IsString()
  @Length(1, 100)
  default_payment_method?: string;

  @MetadataField({ plan: 'pro' }) metadata?: Record<string, unknown>;
}

/** POST /subscriptions/{id}/cancel. */
export class CancelSubscriptionDto {
  @ApiPropertyOptional({
    example: false,
    description:
      'A final invoice now (`billing_reason: subscription_cancel`): the usage of the current period up to the ' +
      'cancel and the pending items (with `prorate`, the credit for the unused time), finalized and collected.',
  })
  @Optional()
  @IsBoolean()
  invoice_now?: boolean;

  @ApiPropertyOptional({
    example: false,
    description: 'Credit the unused time of licensed items as pending proration items.',
  })
  @Optional()
  @IsBoolean()
  prorate?: boolean;
}

export class SubscriptionItemDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'subscription_item' }) object: string;
  @ApiProperty({ example: EXAMPLE_ID }) price_id: string;
  @ApiProperty({ example: 1, nullable: true, type: Number }) quantity: number | null;
  @ApiProperty({ example: {} }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
}

class DiscountDto {
  @ApiProperty({ example: EXAMPLE_ID, description: 'The coupon applied (of the promotion code, if one was used).' })
  coupon: string;
  @ApiProperty({ example: null, nullable: true, type: String }) promotion_code: string | null;
  @ApiProperty({ example: EXAMPLE_TIME, description: "When it started applying (the subscription's creation)." })
  start: string;
}

class ItemListDto {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({ type: [SubscriptionItemDto] }) data: SubscriptionItemDto[];
}

export class SubscriptionDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'subscription' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: EXAMPLE_ID }) customer_id: string;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES, example: 'trialing' }) status: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ type: ItemListDto }) items: ItemListDto;
  @ApiProperty({ example: EXAMPLE_TIME }) current_period_start: string;
  @ApiProperty({ example: EXAMPLE_TIME }) current_period_end: string;
  @ApiProperty({ example: EXAMPLE_TIME }) billing_cycle_anchor: string;
  @ApiProperty({ example: EXAMPLE_TIME, nullable: true, type: String }) trial_start: string | null;
  @ApiProperty({ example: EXAMPLE_TIME, nullable: true, type: String }) trial_end: string | null;
  @ApiProperty({ example: false }) cancel_at_period_end: boolean;
  @ApiProperty({ example: null, nullable: true, type: String }) canceled_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) ended_at: string | null;
  @ApiProperty({ enum: COLLECTION_METHODS, example: 'charge_automatically' }) collection_method: string;
  @ApiProperty({ example: null, nullable: true, type: Number }) days_until_due: number | null;
  @ApiProperty({ example: null, nullable: true, type: String }) default_payment_method: string | null;
  @ApiProperty({ enum: RETRIES_EXHAUSTED_ACTIONS, example: 'cancel' }) retries_exhausted_action: string;
  @ApiProperty({ type: DiscountDto, nullable: true }) discount: DiscountDto | null;
  @ApiProperty({ example: [EXAMPLE_ID], type: [String] }) default_tax_rates: string[];
  @ApiProperty({ example: null, nullable: true, type: String, description: 'The last invoice made for it.' })
  latest_invoice: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) test_clock: string | null;
  @ApiProperty({ example: { plan: 'pro' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME, description: "Creation time by the customer's clock." }) created: string;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}

export class PendingItemDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'subscription_pending_item' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: EXAMPLE_ID }) subscription_id: string;
  @ApiProperty({ example: EXAMPLE_ID, nullable: true, type: String }) subscription_item_id: string | null;
  @ApiProperty({ example: EXAMPLE_ID }) price_id: string;
  @ApiProperty({ example: 'proration' }) kind: string;
  @ApiProperty({ example: 'Remaining time on 2 × (from 2026-11-22)' }) description: string;
  @ApiProperty({ example: 2 }) quantity: number;
  @ApiProperty({ example: 15000, description: 'Minor units; negative for a credit.' }) amount: number;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: EXAMPLE_TIME }) period_start: string;
  @ApiProperty({ example: EXAMPLE_TIME }) period_end: string;
  @ApiProperty({ example: null, nullable: true, type: String }) invoice_id: string | null;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
}
