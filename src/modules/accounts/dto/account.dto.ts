import { ApiProperty } from '@nestjs/swagger';

/** The account record (Stripe-like). */
export class AccountDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'account' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'connected', enum: ['own', 'connected'] }) type: string;
  @ApiProperty({ example: 'Baan Somchai', nullable: true }) name: string;
  @ApiProperty({ example: 'Baan Somchai Co., Ltd.', nullable: true }) business_name: string;
  @ApiProperty({ example: 'finance@baansomchai.co.th', nullable: true }) email: string;
  @ApiProperty({ example: 'TH', nullable: true }) country: string;
  @ApiProperty({ example: 'THB', nullable: true }) default_currency: string;
  @ApiProperty({ example: 'pending', enum: ['pending', 'verified', 'rejected'] }) kyb_status: string;
  @ApiProperty({ example: null, nullable: true }) kyb_rejection_reason: string;
  @ApiProperty({ example: null, nullable: true }) kyb_decided_at: string;
  @ApiProperty({ example: { crm_id: '42' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: ['marketplace'], type: [String] }) labels: string[];
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) created_at: string;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) updated_at: string;
}
