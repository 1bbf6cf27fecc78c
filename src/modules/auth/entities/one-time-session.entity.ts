import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Mode } from '../../../common/context/principal.js';

@Entity({ name: 'one_time_sessions', schema: 'platform' })
export class OneTimeSession {
  @PrimaryColumn('uuid') id: string;
  /** SHA-256 of the token; the token itself is shown once, to the caller that issued it. */
  @Column('bytea') token_hash: Buffer;
  @Column('uuid') application_id: string;
  @Column('text') mode: Mode;
  @Column('text') purpose: string;
  @Column('text') target_id: string;
  @Column('timestamptz') expires_at: Date;
  @Column('timestamptz', { nullable: true }) completed_at: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
}
