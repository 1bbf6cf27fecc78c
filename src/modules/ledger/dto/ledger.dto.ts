import { ApiProperty } from '@nestjs/swagger';
import {
  EXAMPLE_ID as UUID,
  EXAMPLE_TIME as TS,
  EMBEDDED_CUSTOMER as CUSTOMER,
} from '../../../common/http/examples.js';

/** The Balance record of the contract. */
export class BalanceDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'balance' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: UUID, nullable: true }) customer_id: string;
  @ApiProperty({ example: 'customer' }) account: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: null, nullable: true }) name: string;
  @ApiProperty({ example: null, nullable: true }) description: string;
  @ApiProperty({ example: 125000 }) available: number;
  @ApiProperty({ example: 5000 }) hold: number;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
  @ApiProperty(CUSTOMER) customer: Record<string, unknown>;
  @ApiProperty({ required: false, example: 130000, description: 'available + hold; only with as_of.' })
  total?: number;
  @ApiProperty({ required: false, example: TS, description: 'The moment the amounts are for; only with as_of.' })
  as_of?: string;
}

class FeeDetailDto {
  @ApiProperty({ example: 'provider_fee' }) type: string;
  @ApiProperty({ example: 365 }) amount: number;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: null, nullable: true }) application: string;
}

/** The Balance transaction (ledger entry) record of the contract. */
export class BalanceTransactionDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'balance_transaction' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 'available', enum: ['available', 'hold'] }) state: string;
  @ApiProperty({ example: 'Payment for order 1001', nullable: true }) description: string;
  @ApiProperty({ example: null, nullable: true }) original_currency: string;
  @ApiProperty({ example: UUID }) balance_id: string;
  @ApiProperty({ example: 'customer' }) account: string;
  @ApiProperty({ example: 'charge.succeeded' }) event_type: string;
  @ApiProperty({ example: UUID, nullable: true }) event_id: string;
  @ApiProperty({ example: null, nullable: true }) parent_event_type: string;
  @ApiProperty({ example: null, nullable: true }) parent_event_id: string;
  @ApiProperty({ example: null, nullable: true }) transfer_id: string;
  @ApiProperty({ example: UUID }) journal_id: string;
  @ApiProperty({ example: null, nullable: true }) category: string;
  @ApiProperty({ example: null, nullable: true }) forex_quote_id: string;
  @ApiProperty({ example: 'charge' }) type: string;
  @ApiProperty({ example: 'payment' }) source: string;
  @ApiProperty({ example: null, nullable: true }) reporting_category: string;
  @ApiProperty({ example: null, nullable: true }) plane: string;
  @ApiProperty({ example: 10000 }) amount: number;
  @ApiProperty({ example: 135000, description: 'available + hold of the balance right after this entry' })
  running_balance: number;
  @ApiProperty({
    example: 42,
    description:
      'Its place (from 1) in its balance\'s hash chain: the order a statement\'s verifier replays (docs/LEDGER.md, "Statements").',
  })
  chain_seq: number;
  @ApiProperty({
    example: '9f2c4e0b7d1a5f3e8c6b2a9d4e7f1c3b5a8d0e2f4c6b8a1d3e5f7a9c2b4d6e8f',
    description:
      'SHA-256 (hex) of the previous entry hash of the balance and this entry (docs/LEDGER.md, "Statements").',
  })
  entry_hash: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: null, nullable: true }) original_amount: number;
  @ApiProperty({ example: 0 }) fee: number;
  @ApiProperty({ example: 10000 }) net: number;
  @ApiProperty({ example: 10000 }) gross_amount: number;
  @ApiProperty({ example: null, nullable: true, type: 'number' }) exchange_rate: number;
  @ApiProperty({ example: false }) record_only: boolean;
  @ApiProperty({ type: [FeeDetailDto] }) fee_details: FeeDetailDto[];
  @ApiProperty({ example: null, nullable: true }) available_on: string;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
  @ApiProperty({ type: BalanceDto }) balance: BalanceDto;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, description: 'The transfer, or null.' })
  transfer: Record<string, unknown>;
}
