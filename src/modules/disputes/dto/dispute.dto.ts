import { ApiProperty } from '@nestjs/swagger';
import { ChargeDto } from '../../checkout/index.js';
import { DISPUTE_STATUSES } from '../dispute.transitions.js';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../common/http/examples.js';

/** Where the evidence stands, as the provider counts it (Stripe's `evidence_details`). */
export class DisputeEvidenceDetailsDto {
  @ApiProperty({ example: TS, nullable: true, description: 'The provider’s response deadline (= evidence_due_by).' })
  due_by: string;
  @ApiProperty({ example: false, description: 'Whether any evidence was saved or submitted.' })
  has_evidence: boolean;
  @ApiProperty({ example: 0, description: 'How many times evidence was submitted to the provider.' })
  submission_count: number;
}

/** The Dispute record of the contract. */
export class DisputeDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'dispute' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'DP-20261122-7K3M9Q' }) number: string;
  @ApiProperty({ example: UUID }) charge_id: string;
  @ApiProperty({ example: null, nullable: true }) payment_intent: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 'needs_response', enum: DISPUTE_STATUSES }) status: string;
  @ApiProperty({ example: 'fraudulent' }) reason: string;
  @ApiProperty({ example: '10.4', nullable: true }) network_reason_code: string;
  @ApiProperty({ example: null, nullable: true }) idempotency_key: string;
  @ApiProperty({ example: 'sandbox', nullable: true }) provider: string;
  @ApiProperty({ example: 'dp_sbx_1', nullable: true }) provider_id: string;
  @ApiProperty({ example: null, nullable: true }) reference_id: string;
  @ApiProperty({ example: null, nullable: true }) forex_quote_id: string;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ example: false }) settled: boolean;
  @ApiProperty({ example: false }) reinstated: boolean;
  @ApiProperty({ example: 10000 }) amount_from_merchant: number;
  @ApiProperty({ example: 0 }) amount_from_app: number;
  @ApiProperty({ example: 10000 }) amount: number;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
  @ApiProperty({ example: TS, nullable: true }) evidence_due_by: string;
  @ApiProperty({ example: TS }) opened_at: string;
  @ApiProperty({ example: null, nullable: true }) closed_at: string;
  @ApiProperty({ example: {} }) evidence: Record<string, unknown>;
  @ApiProperty({ type: DisputeEvidenceDetailsDto }) evidence_details: DisputeEvidenceDetailsDto;
  @ApiProperty({ example: {} }) metadata: Record<string, unknown>;
  @ApiProperty({ example: [], type: [String] }) labels: string[];
  @ApiProperty({ type: ChargeDto }) charge: ChargeDto;
}
