import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../common/http/examples.js';
import { MetadataField, Optional } from '../../../common/http/fields.js';
import { PAYOUT_INTERVALS, WEEKDAYS } from '../entities/payout-schedule.entity.js';

const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;
const CURRENCY = /^[A-Za-z]{3}$/;

export class CreatePayoutDto {
  @ApiProperty({ description: 'Amount in minor units (see scaling_factor).', example: 50000 })
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiProperty({ description: 'The currency of the destination bank account.', example: 'THB' })
  @Matches(CURRENCY, { message: 'currency must be a three-letter ISO 4217 code' })
  currency: string;

  @ApiProperty({ description: 'A bank account of the account (POST /bank_accounts).', example: UUID })
  @IsUUID()
  destination: string;

  @ApiPropertyOptional({
    description: 'A connected account (KYB verified) to pay out from; defaults to the application’s own account.',
    example: UUID,
  })
  @Optional()
  @IsUUID()
  account?: string;

  @ApiPropertyOptional({ example: 'Weekly settlement' }) @Optional() @IsString() @MaxLength(1000) description?: string;

  @MetadataField({ batch: '2026-11' }) metadata?: Record<string, unknown>;
}

export class PayoutDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'payout' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 50000 }) amount: number;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ enum: ['pending', 'in_transit', 'paid', 'failed', 'canceled'], example: 'in_transit' })
  status: string;
  @ApiProperty({ example: UUID, description: 'The account paid out from.' }) account: string;
  @ApiProperty({ example: UUID, description: 'The bank account paid to.' }) destination: string;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ example: UUID, description: 'The ledger balance the payout is taken from.' }) balance_id: string;
  @ApiProperty({ example: 'bank_account' }) type: string;
  @ApiProperty({ example: 'standard' }) method: string;
  @ApiProperty({ example: false, description: 'Made by the account’s payout schedule.' }) automatic: boolean;
  @ApiProperty({ example: null, nullable: true }) description: string;
  @ApiProperty({ example: 'sandbox', nullable: true }) provider: string;
  @ApiProperty({ example: 'trf_sbx_Q2x9', nullable: true }) provider_reference: string;
  @ApiProperty({ example: null, nullable: true, description: 'account_closed, no_account, …' }) failure_code: string;
  @ApiProperty({ example: null, nullable: true }) failure_message: string;
  @ApiProperty({ example: {} }) metadata: Record<string, unknown>;
  @ApiProperty({ example: TS, nullable: true }) arrival_date: string;
  @ApiProperty({ example: null, nullable: true }) paid_at: string;
  @ApiProperty({ example: null, nullable: true }) failed_at: string;
  @ApiProperty({ example: null, nullable: true }) canceled_at: string;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
}

export class PayoutScheduleInputDto {
  @ApiPropertyOptional({ description: 'Defaults to the application’s own account.', example: UUID })
  @Optional()
  @IsUUID()
  account?: string;

  @ApiProperty({ enum: PAYOUT_INTERVALS, example: 'daily' })
  @IsIn(PAYOUT_INTERVALS)
  interval: (typeof PAYOUT_INTERVALS)[number];

  @ApiPropertyOptional({ enum: WEEKDAYS, description: 'The day of weekly payouts (UTC); default monday.' })
  @Optional()
  @IsIn(WEEKDAYS)
  weekly_anchor?: (typeof WEEKDAYS)[number];

  @ApiPropertyOptional({ description: 'Bank account of the account; required for daily and weekly.', example: UUID })
  @Optional()
  @IsUUID()
  destination?: string;

  @ApiPropertyOptional({ description: 'Currency of the balance paid out; default THB.', example: 'THB' })
  @Optional()
  @Matches(CURRENCY, { message: 'currency must be a three-letter ISO 4217 code' })
  currency?: string;

  @ApiPropertyOptional({
    description: 'A run pays out the whole available balance only when it is at least this much (minor units).',
    example: 10000,
  })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_AMOUNT)
  minimum_amount?: number;
}

export class PayoutScheduleDto {
  @ApiProperty({ example: 'payout_schedule' }) object: string;
  @ApiProperty({ example: UUID }) account: string;
  @ApiProperty({ enum: PAYOUT_INTERVALS, example: 'daily' }) interval: string;
  @ApiProperty({ example: null, nullable: true }) weekly_anchor: string;
  @ApiProperty({ example: UUID, nullable: true }) destination: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 10000 }) minimum_amount: number;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: TS, nullable: true }) created_at: string;
  @ApiProperty({ example: TS, nullable: true }) updated_at: string;
}
