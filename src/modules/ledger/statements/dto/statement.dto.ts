import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';

const HASH = '3b5d0c1e7f2a4d6b8c9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e';

export class CreateBalanceStatementDto {
  @ApiProperty({
    example: '2026-11-01T00:00:00Z',
    description:
      'RFC 3339 moment with a time zone, not in the future: the statement covers the entries created at or before it.',
  })
  @IsString()
  as_of: string;
}

export class BalanceStatementPayloadDto {
  @ApiProperty({ example: 'balance_statement' }) object: string;
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: EXAMPLE_ID }) balance_id: string;
  @ApiProperty({ example: EXAMPLE_ID }) application_id: string;
  @ApiProperty({ example: 'test', enum: ['test', 'live'] }) mode: string;
  @ApiProperty({ example: 'customer' }) account: string;
  @ApiProperty({ example: EXAMPLE_ID, nullable: true }) customer_id: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: '2026-11-01T00:00:00.000Z' }) as_of: string;
  @ApiProperty({ example: 125000, description: 'Available at as_of (minor units).' }) available: number;
  @ApiProperty({ example: 10000, description: 'Held (the balance\'s "hold") at as_of.' }) pending: number;
  @ApiProperty({ example: 135000 }) total: number;
  @ApiProperty({ example: 42, description: "The entries covered: the chain's places 1..entry_count." })
  entry_count: number;
  @ApiProperty({ example: EXAMPLE_ID, nullable: true }) last_entry_id: string;
  @ApiProperty({ example: HASH, description: 'entry_hash of the last entry covered (64 zeros when none).' })
  last_entry_hash: string;
  @ApiProperty({ example: 'wallet-ledger-entry-v1' }) chain_version: string;
  @ApiProperty({ example: EXAMPLE_TIME }) issued_at: string;
}

export class BalanceStatementDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'balance_statement' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: EXAMPLE_ID }) balance_id: string;
  @ApiProperty({ example: '2026-11-01T00:00:00.000Z' }) as_of: string;
  @ApiProperty({ example: 'kq0n7hZ2l0lJ3o7G6bq1y0b3m5K1w2Z8x9Yc4d5e6f0', description: 'The signing key in the JWKS.' })
  kid: string;
  @ApiProperty({
    example: 'eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiIsInR5cCI6IndhbGxldC1zdGF0ZW1lbnQrandzIn0.eyJ...In0.c2ln...',
    description:
      'The signed statement: a compact JWS (EdDSA, Ed25519) whose payload is `statement`. Verify it with the keys at /.well-known/wallet-statement-keys.',
  })
  jws: string;
  @ApiProperty({ type: BalanceStatementPayloadDto, description: 'The signed payload, decoded.' })
  statement: BalanceStatementPayloadDto;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
}

export class StatementPublicKeyDto {
  @ApiProperty({ example: 'OKP' }) kty: string;
  @ApiProperty({ example: 'Ed25519' }) crv: string;
  @ApiProperty({ example: 'kq0n7hZ2l0lJ3o7G6bq1y0b3m5K1w2Z8x9Yc4d5e6f0' }) kid: string;
  @ApiProperty({ example: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }) x: string;
  @ApiProperty({ example: 'sig' }) use: string;
  @ApiProperty({ example: 'EdDSA' }) alg: string;
}

export class StatementKeySetDto {
  @ApiProperty({ type: [StatementPublicKeyDto], description: 'The active key first, then the retired ones.' })
  keys: StatementPublicKeyDto[];
}
