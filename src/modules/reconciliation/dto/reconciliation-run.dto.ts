import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../common/http/examples.js';
import { Optional } from '../../../common/http/fields.js';
import { OUTCOMES } from '../outcomes.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export class CreateReconciliationRunDto {
  @ApiProperty({
    example: 'sandbox',
    description: 'The provider: `opn`, `stripe` (with keys in the mode), or `sandbox` in test mode.',
  })
  @IsString()
  @Matches(/^[a-z][a-z0-9_]{0,31}$/, { message: 'provider must be a provider name' })
  provider: string;

  @ApiProperty({
    required: false,
    example: 'po_sandbox_1OaBcDeF',
    description:
      'One provider payout (Opn `trsf_…`, Stripe `po_…`; in test mode any `po_sandbox_…`). Give this or the interval.',
  })
  @Optional()
  @IsString()
  @MaxLength(255)
  @Matches(/^[A-Za-z0-9_]+$/, { message: 'payout must be a provider payout id' })
  payout?: string;

  @ApiProperty({
    required: false,
    example: '2026-11-01T00:00:00Z',
    description: 'RFC 3339: payouts created from here.',
  })
  @Optional()
  @IsString()
  @Matches(RFC3339, { message: 'interval_start must be an RFC 3339 timestamp' })
  interval_start?: string;

  @ApiProperty({
    required: false,
    example: '2026-11-02T00:00:00Z',
    description: 'RFC 3339: payouts created before here.',
  })
  @Optional()
  @IsString()
  @Matches(RFC3339, { message: 'interval_end must be an RFC 3339 timestamp' })
  interval_end?: string;
}

class OutcomeCountsDto {
  @ApiProperty({ example: 9995 }) matched: number;
  @ApiProperty({ example: 1 }) missing_in_ledger: number;
  @ApiProperty({ example: 1 }) missing_at_provider: number;
  @ApiProperty({ example: 1 }) amount_mismatch: number;
  @ApiProperty({ example: 1 }) fee_mismatch: number;
  @ApiProperty({ example: 1 }) duplicate: number;
}

/** The reconciliation run resource. */
export class ReconciliationRunDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'reconciliation_run' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'stripe' }) provider: string;
  @ApiProperty({ example: 'po_1OaBcDeFgHiJkLmN', nullable: true }) payout: string;
  @ApiProperty({ example: null, nullable: true }) interval_start: string;
  @ApiProperty({ example: null, nullable: true }) interval_end: string;
  @ApiProperty({ enum: ['scheduled', 'on_demand'], example: 'on_demand' }) trigger: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], example: 'succeeded' }) status: string;
  @ApiProperty({ example: null, nullable: true, description: 'Why the run failed.' }) error: string;
  @ApiProperty({ example: 10000, nullable: true, description: 'Settlement lines imported.' }) line_count: number;
  @ApiProperty({ example: 10000, nullable: true, description: 'References compared.' }) item_count: number;
  @ApiProperty({ example: 5, nullable: true, description: 'Items whose outcome is not `matched`.' })
  mismatch_count: number;
  @ApiProperty({ type: OutcomeCountsDto, nullable: true }) outcomes: OutcomeCountsDto;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME, nullable: true }) succeeded_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}

/** One provider reference of a run and how it matched the ledger. */
export class ReconciliationItemDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'reconciliation_item' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: EXAMPLE_ID, description: 'The run.' }) run: string;
  @ApiProperty({ enum: OUTCOMES, example: 'fee_mismatch' }) outcome: string;
  @ApiProperty({ example: 'pi_3OaBcDeFgHiJkLmN', description: "The provider's reference of the charge or refund." })
  reference: string;
  @ApiProperty({ example: 'charge' }) type: string;
  @ApiProperty({ example: EXAMPLE_ID, nullable: true, description: 'The charge or refund in the ledger.' })
  record: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 125000, nullable: true }) ledger_amount: number;
  @ApiProperty({ example: 125000, nullable: true }) provider_amount: number;
  @ApiProperty({ example: 4563, nullable: true }) ledger_fee: number;
  @ApiProperty({ example: 4600, nullable: true }) provider_fee: number;
  @ApiProperty({ example: 1, description: 'Gross lines the provider reported for the reference.' })
  provider_lines: number;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
}
