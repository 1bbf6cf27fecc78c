import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

const UUID = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
const DIGEST = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export class LineUsageDto {
  @ApiProperty({ enum: ['sum', 'count', 'last', 'max'], example: 'sum' }) aggregation: string;
  @ApiProperty({ example: 3, description: 'How many meter events the line counts.' }) event_count: number;
  @ApiProperty({ example: '150', description: "The meter's formula over those events, as exact decimal text." })
  quantity: string;
  @ApiProperty({
    example: DIGEST,
    description: 'SHA-256 (hex) of "<event id>:<value>" per event, sorted by id, joined by "\\n" (docs/BILLING.md).',
  })
  digest: string;
}

export class LinePeriodDto {
  @ApiProperty({ format: 'date-time' }) start: string;
  @ApiProperty({ format: 'date-time' }) end: string;
}

export class LineTaxAmountDto {
  @ApiProperty({ example: UUID }) tax_rate_id: string;
  @ApiProperty() inclusive: boolean;
  @ApiProperty({ example: 26910 }) taxable_amount: number;
  @ApiProperty({ example: 1884 }) amount: number;
}

export class InvoiceLineObjectDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'line_item' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: UUID }) invoice: string;
  @ApiProperty({ example: UUID, nullable: true }) subscription: string;
  @ApiProperty({ enum: ['subscription', 'proration', 'metered', 'metered_earlier'] }) type: string;
  @ApiProperty({ example: 'Usage of API calls' }) description: string;
  @ApiProperty({ example: UUID, nullable: true }) price: string;
  @ApiProperty({ example: UUID, nullable: true }) meter: string;
  @ApiProperty({ example: 150, description: 'Whole units rated (a metered aggregate rounded up).' }) quantity: number;
  @ApiProperty({ example: 2500, description: 'Signed minor units, before discount and exclusive tax.' }) amount: number;
  @ApiProperty({ example: 0 }) discount_amount: number;
  @ApiProperty({
    example: 0,
    description: 'Prepaid credit the line took at finalization (after its discount, before tax).',
  })
  credit_amount: number;
  @ApiProperty({ type: [LineTaxAmountDto] }) tax_amounts: LineTaxAmountDto[];
  @ApiProperty({ type: LinePeriodDto }) period: LinePeriodDto;
  @ApiProperty({ type: LineUsageDto, nullable: true, description: 'Metered lines only.' }) usage: LineUsageDto;
  @ApiProperty({
    example: null,
    nullable: true,
    description: '`metered_earlier`: the line of the period the late events belong to.',
  })
  earlier_line: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class BilledMeterEventDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'billing.meter_event' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'req_123' }) identifier: string;
  @ApiProperty({ example: 'api_call' }) event_name: string;
  @ApiProperty({ example: UUID }) customer_id: string;
  @ApiProperty({ example: '12', description: 'The value as stored and digested (exact decimal text).' }) value: string;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class UpcomingQueryDto {
  @ApiProperty({ example: UUID, description: 'The subscription whose next invoice to preview.' })
  @IsUUID('all', { message: 'subscription_id must be an id' })
  subscription_id: string;
}

export class UpcomingInvoiceDto {
  @ApiProperty({ example: 'invoice' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: null, nullable: true, description: 'Always null: the invoice is not made yet.' }) id: string;
  @ApiProperty({ example: 'draft' }) status: string;
  @ApiProperty({ example: UUID }) customer_id: string;
  @ApiProperty({ example: UUID }) subscription: string;
  @ApiProperty({ example: 'upcoming' }) billing_reason: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ format: 'date-time' }) period_start: string;
  @ApiProperty({ format: 'date-time' }) period_end: string;
  @ApiProperty({ format: 'date-time', description: 'When the invoice will be made (the period end).' })
  next_invoice_date: string;
  @ApiProperty({ type: [InvoiceLineObjectDto], description: 'Lines as they stand now (ids and invoice are null).' })
  lines: InvoiceLineObjectDto[];
  @ApiProperty({ example: 32400 }) subtotal: number;
  @ApiProperty({ example: 0 }) total_discount: number;
  @ApiProperty({ example: 2268 }) total_tax: number;
  @ApiProperty({ example: 34668 }) total: number;
  @ApiProperty({ example: 34668 }) amount_due: number;
}
