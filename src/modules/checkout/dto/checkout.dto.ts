import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsUUID,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  MetadataField,
  NestedArray,
  NestedField,
  NestedObject,
  Optional,
  stacked,
} from '../../../common/http/fields.js';
import { PAYMENT_METHOD_TYPES } from '../../../providers/ports/collection.port.js';
import { PaymentMethodTypesField } from './common.dto.js';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/** Where the payer's browser goes afterwards: an optional http(s) URL. */
const RedirectUrlField = (doc: ApiPropertyOptions) =>
  stacked(ApiPropertyOptional(doc), Optional(), IsUrl(URL_OPTIONS), MaxLength(2048));

export class CheckoutLineItemDto {
  @ApiProperty({ example: 'price_1001' }) @IsString() @Length(1, 200) price: string;
  @ApiProperty({ example: 1 }) @IsInt() @Min(1) @Max(10_000) quantity: number;
}

export class PaymentSettingsDto {
  @ApiPropertyOptional({ example: 'on_subscription' })
  @Optional()
  @IsString()
  @MaxLength(100)
  save_default_payment_method?: string;
}

export class SubscriptionDataDto {
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(100) customer_id?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(10) currency?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(1000) description?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) coupon?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(100) collection_method?: string;
  @ApiPropertyOptional() @Optional() @IsInt() @Min(0) @Max(730) trial_period_days?: number;
  @ApiPropertyOptional() @Optional() @IsISO8601({ strict: true }) trial_end?: string;
  @ApiPropertyOptional() @Optional() @IsISO8601({ strict: true }) billing_cycle_anchor?: string;
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  default_tax_rates?: string[];
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  default_fees?: string[];
  @NestedField(PaymentSettingsDto) payment_settings?: PaymentSettingsDto;
  @MetadataField() metadata?: Record<string, unknown>;
}

export class CreateCheckoutDto {
  @ApiProperty({
    enum: ['invoice', 'payment_intent', 'customer'],
    description: '`customer` (the customer whose card is saved) only with mode `setup`, and only then (E7033).',
  })
  @IsIn(['invoice', 'payment_intent', 'customer'])
  target_type: 'invoice' | 'payment_intent' | 'customer';

  @ApiProperty({
    example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
    description: 'Id of the target to collect (mode `setup`: the customer).',
  })
  @IsString()
  @Length(1, 100)
  target_id: string;

  @RedirectUrlField({
    example: 'https://shop.example/thanks?checkout={CHECKOUT_ID}',
    description: 'Redirect after payment; `{CHECKOUT_ID}` is replaced by the checkout id.',
  })
  success_url?: string;

  @RedirectUrlField({ example: 'https://shop.example/cart' })
  cancel_url?: string;

  @MetadataField({ order_id: '1001' }) metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: ['payment', 'setup', 'subscription'],
    default: 'payment',
    description:
      '`payment` collects the target; `setup` saves a card to the customer named by target_id (test mode, docs/COLLECTION.md "Saved payment methods"); `subscription` subscribes the customer named by target_id to `line_items` and collects the first invoice (test mode, docs/BILLING.md "Subscription checkout").',
  })
  @Optional()
  @IsIn(['payment', 'setup', 'subscription'])
  mode?: string;

  @ApiPropertyOptional({
    type: [CheckoutLineItemDto],
    description: 'Stored and returned; the amount always comes from the target.',
  })
  @Optional()
  @ArrayMaxSize(100)
  @NestedArray(CheckoutLineItemDto)
  line_items?: CheckoutLineItemDto[];

  @ApiPropertyOptional({
    description:
      'Mode `subscription`: the hosted page shows a promotion code field that re-prices the first invoice before payment.',
  })
  @Optional()
  @IsBoolean()
  allow_promotion_codes?: boolean;

  @ApiPropertyOptional({
    description:
      'Mode `subscription`: a promotion code (its code, case-insensitive) redeemed for the subscription; other modes E7010.',
  })
  @Optional()
  @IsString()
  @MaxLength(200)
  promotion_code?: string;

  @PaymentMethodTypesField({
    description: "Narrows the target's allowed payment method types; anything outside them is E7007.",
  })
  payment_method_types?: string[];

  @ApiPropertyOptional({ enum: ['always', 'if_required'], description: 'Stored and returned.' })
  @Optional()
  @IsIn(['always', 'if_required'])
  payment_method_collection?: string;

  @NestedField(SubscriptionDataDto, 'Only with mode `subscription` (E7075); fields it cannot honour E7072.')
  subscription_data?: SubscriptionDataDto;
}

/** The card the buyer typed, sent to the test-mode vault only (never to the payment API: E2009 there). */
export class VaultCardDto {
  @ApiProperty({ example: '4242 4242 4242 4242' }) @IsString() @MaxLength(30) number: string;
  @ApiProperty({ example: 12 }) @IsInt() exp_month: number;
  @ApiProperty({ example: 2030, description: 'Four digits (two are read as 20xx).' }) @IsInt() exp_year: number;
  @ApiProperty({ example: '123' }) @IsString() @MaxLength(10) cvc: string;
  @ApiPropertyOptional({ example: 'Somchai Jaidee' }) @Optional() @IsString() @MaxLength(200) name?: string;
}

/** `POST /api/v1/{app}/vault/tokens`: the hosted page's card form, with the checkout's session, in test mode. */
export class CreateCardTokenDto {
  @ApiProperty({ type: VaultCardDto, description: 'The card to tokenize.' })
  @NestedObject(VaultCardDto)
  card: VaultCardDto;
}

/** Sent by the hosted page with the checkout's one-time session. */
export class ConfirmCheckoutDto {
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES })
  @IsIn(PAYMENT_METHOD_TYPES)
  payment_method_type: string;

  @ApiPropertyOptional({
    example: 'tok_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b',
    description:
      'Required for `card`: the card token. Test mode: a `tok_…` of `POST /api/v1/{app}/vault/tokens`; live mode: ' +
      "the provider's token (Omise.js `tokn_…`, a Stripe PaymentIntent `pi_…`). Card numbers are refused (E2009).",
  })
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z0-9_]{1,255}$/)
  token?: string;

  @ApiPropertyOptional({
    example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
    description:
      'Instead of `token`: a saved card of the checkout’s customer, paid with the customer on the page (completes the 3-D Secure an off-session payment asked for).',
  })
  @Optional()
  @IsUUID()
  payment_method?: string;

  @ApiPropertyOptional({
    enum: ['ios', 'android'],
    description:
      "Redirect flows (TrueMoney, mobile banking): the buyer's phone, so that the provider answers the app's deep link. Sent by the hosted page from the browser's user agent; absent on a desktop.",
  })
  @Optional()
  @IsIn(['ios', 'android'])
  platform?: 'ios' | 'android';

  @ApiPropertyOptional({
    example: 6,
    description:
      'Required for `installment_*` types: the term in months, one the issuer offers (docs/COLLECTION.md, "Installments"); E7407 otherwise.',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(60)
  installment_term?: number;

  @ApiPropertyOptional({
    example: 'maybank2u',
    description:
      "Required for `fpx`: the payer's bank, one of the registry's FPX banks (`maybank2u`, `cimb`, `public_bank`, …); not sent with any other type. E7450 otherwise.",
  })
  @Optional()
  @IsString()
  @MaxLength(40)
  bank?: string;
}

export class CreatePaymentLinkDto {
  @ApiProperty({ enum: ['invoice', 'payment_intent'] })
  @IsIn(['invoice', 'payment_intent'])
  target_type: 'invoice' | 'payment_intent';

  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' })
  @IsString()
  @Length(1, 100)
  target_id: string;

  @RedirectUrlField({ example: 'https://shop.example/thanks' })
  success_url?: string;

  @RedirectUrlField({ example: 'https://shop.example/cart' })
  cancel_url?: string;

  @MetadataField() metadata?: Record<string, unknown>;
}
