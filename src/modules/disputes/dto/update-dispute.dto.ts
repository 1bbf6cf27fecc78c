import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Matches, MaxLength } from 'class-validator';
import { MetadataField, NestedField, Optional, stacked } from '../../../common/http/fields.js';

/** A free-text evidence field: up to 20,000 characters. */
const Text = (example: string, description?: string) =>
  stacked(ApiPropertyOptional({ example, maxLength: 20000, description }), Optional(), IsString(), MaxLength(20000));

/** A file reference: the id of a file uploaded elsewhere (letters, digits, `_`, `-`, `.`, `:`), up to 200 characters. */
const FileRef = (description: string) =>
  stacked(
    ApiPropertyOptional({ example: 'file_7K3M9Q2R', maxLength: 200, description: `File id: ${description}` }),
    Optional(),
    IsString(),
    MaxLength(200),
    Matches(/^[A-Za-z0-9_.:-]+$/),
  );

export const EVIDENCE_TEXT_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_tracking_number',
  'uncategorized_text',
] as const;

export const EVIDENCE_FILE_FIELDS = [
  'cancellation_policy',
  'customer_communication',
  'customer_signature',
  'duplicate_charge_documentation',
  'receipt',
  'refund_policy',
  'service_documentation',
  'shipping_documentation',
  'uncategorized_file',
] as const;

/** Evidence for a dispute: text fields and file references (file ids). Given fields replace the saved ones. */
export class DisputeEvidenceDto {
  @Text('10.0.0.1 signed in at 2026-11-20T10:00:00Z and used the service for 3 hours') access_activity_log?: string;
  @Text('99 Sukhumvit Rd, Bangkok 10110') billing_address?: string;
  @Text('Shown at checkout: cancel any time before renewal.') cancellation_policy_disclosure?: string;
  @Text('The customer did not cancel before the renewal date.') cancellation_rebuttal?: string;
  @Text('somchai@example.com') customer_email_address?: string;
  @Text('Somchai Jaidee') customer_name?: string;
  @Text('203.0.113.7') customer_purchase_ip?: string;
  @Text('The two charges are for two separate orders.') duplicate_charge_explanation?: string;
  @Text('0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', 'Id of the other charge') duplicate_charge_id?: string;
  @Text('One year of the Premium plan, delivered electronically.') product_description?: string;
  @Text('Refunds within 14 days, shown at checkout.') refund_policy_disclosure?: string;
  @Text('The refund window had passed.') refund_refusal_explanation?: string;
  @Text('2026-11-20') service_date?: string;
  @Text('99 Sukhumvit Rd, Bangkok 10110') shipping_address?: string;
  @Text('Thailand Post') shipping_carrier?: string;
  @Text('2026-11-21') shipping_date?: string;
  @Text('EX123456789TH') shipping_tracking_number?: string;
  @Text('Any other text the provider should read.') uncategorized_text?: string;
  @FileRef('the merchant’s cancellation policy') cancellation_policy?: string;
  @FileRef('messages with the customer') customer_communication?: string;
  @FileRef('the customer’s signature') customer_signature?: string;
  @FileRef('documents showing the charges are not duplicates') duplicate_charge_documentation?: string;
  @FileRef('the receipt sent to the customer') receipt?: string;
  @FileRef('the refund policy') refund_policy?: string;
  @FileRef('proof the service was provided') service_documentation?: string;
  @FileRef('proof of shipping') shipping_documentation?: string;
  @FileRef('any other file') uncategorized_file?: string;
}

/** POST /disputes/{id}: save or submit evidence. */
export class UpdateDisputeDto {
  @NestedField(DisputeEvidenceDto, 'Evidence fields to set; fields left out keep their saved value.')
  evidence?: DisputeEvidenceDto;

  @stacked(
    ApiPropertyOptional({
      default: false,
      description:
        'true submits the evidence to the provider: needs_response -> under_review, after which nothing can change. false (default) only saves it.',
    }),
    Optional(),
    IsBoolean(),
  )
  submit?: boolean;

  @MetadataField({ case: 'A-1029' })
  metadata?: Record<string, unknown>;
}
