import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Mode } from '../../../common/context/principal.js';

@Entity({ name: 'api_keys', schema: 'platform' })
export class ApiKey {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  application_id: string;

  @Column('text')
  mode: Mode;

  /** Public part of the key, used for lookup; the key itself is never stored. */
  @Column('text')
  prefix: string;

  /** SHA-256 of the whole key. */
  @Column('bytea')
  secret_hash: Buffer;

  @Column('text')
  last4: string;

  @Column('text')
  status: 'active' | 'revoked';

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @Column('timestamptz', { nullable: true })
  revoked_at: Date | null;
}
