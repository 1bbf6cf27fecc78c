import { ApiProperty } from '@nestjs/swagger';

class CreationErrorDto {
  @ApiProperty({ example: 'E6120' }) code: string;
  @ApiProperty({ example: 'The transfer provider did not create the recipient.' }) message: string;
}

/** The generic creation response of the contract. */
export class BankAccountCreationDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'bank_account' }) object: string;
  @ApiProperty({ example: 'bank_accounts/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) resource: string;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) created_at: string;
  @ApiProperty({ type: [CreationErrorDto] }) errors: CreationErrorDto[];
  @ApiProperty({ type: [Object], example: [] }) next_action: object[];
}

/** A stored bank account. Numbers are masked: only their last 4 digits leave the service. */
export class BankAccountDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'bank_account' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6c' }) account: string;
  @ApiProperty({ enum: ['own', 'connected'] }) account_kind: string;
  @ApiProperty({ enum: ['bookbank', 'promptpay_phone', 'promptpay_primary_identify_id'] }) type: string;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 'Somchai Jaidee' }) account_holder_name: string;
  @ApiProperty({ example: '004', nullable: true }) bank_code: string;
  @ApiProperty({ example: 'Kasikornbank', nullable: true }) bank_name: string;
  @ApiProperty({ example: '0123', nullable: true }) branch_code: string;
  @ApiProperty({ example: 'savings', nullable: true }) account_type: string;
  @ApiProperty({ example: '******7890', nullable: true }) account_number: string;
  @ApiProperty({ example: null, nullable: true }) phone_number: string;
  @ApiProperty({ example: null, nullable: true }) primary_identify_id: string;
  @ApiProperty({ example: '7890' }) last4: string;
  @ApiProperty({ example: 'sandbox', nullable: true }) provider: string;
  @ApiProperty({ example: 'th_bank_account', nullable: true }) provider_type: string;
  @ApiProperty({ enum: ['not_applicable', 'disabled', 'created', 'failed'] }) provider_status: string;
  @ApiProperty({ example: 'rcp_sbx_x1y2z3', nullable: true }) recipient_reference: string;
  @ApiProperty({ example: '0040123', nullable: true }) routing_number: string;
  @ApiProperty({ example: null, nullable: true }) intent: string;
  @ApiProperty({ example: { payee: '42' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: ['primary'], type: [String] }) labels: string[];
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) created_at: string;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) updated_at: string;
}

export class BankAccountIntentLinkDto {
  @ApiProperty({ example: 'wss_4u2bW0n1m9c8e7d6f5g4h3j2k1l0p9o8i7u6y5t4r3e' }) session: string;
  @ApiProperty({
    example:
      'https://wallet.example/connect/demo/bank_account_intents/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b#session=wss_…',
  })
  link: string;
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'bank_account_intent' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: '2026-11-22T17:00:30.583Z' }) expires_at: string;
}

export class BankAccountIntentDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'bank_account_intent' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6c' }) account: string;
  @ApiProperty({ example: 'TH' }) country: string;
  @ApiProperty({ enum: ['open', 'completed', 'expired'] }) status: string;
  @ApiProperty({ example: null, nullable: true }) bank_account: string;
  @ApiProperty({ example: 'https://partner.example/payouts/done' }) return_url: string;
  @ApiProperty({ example: 'https://partner.example/payouts/new-link' }) refresh_url: string;
  @ApiProperty({ example: { payee: '42' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-22T17:00:30.583Z' }) expires_at: string;
  @ApiProperty({ example: null, nullable: true }) completed_at: string;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) created_at: string;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) updated_at: string;
}
