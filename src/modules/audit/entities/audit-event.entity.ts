import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One audit row (platform.audit_events): append-only, hash-chained per application (audit-chain.ts). */
@Entity({ name: 'audit_events', schema: 'platform' })
export class AuditEvent {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  chain_id: string;

  @Column('bigint')
  chain_seq: string;

  @Column('uuid', { nullable: true })
  application_id: string | null;

  @Column('boolean', { nullable: true })
  livemode: boolean | null;

  @Column('text')
  actor_type: string;

  @Column('text', { nullable: true })
  actor_id: string | null;

  @Column('text')
  action: string;

  @Column('text')
  target_type: string;

  @Column('text', { nullable: true })
  target_id: string | null;

  @Column('text', { nullable: true })
  request_id: string | null;

  @Column('text', { nullable: true })
  client_address: string | null;

  @Column('text', { nullable: true })
  user_agent: string | null;

  @Column('jsonb', { nullable: true })
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;

  @Column('jsonb')
  metadata: Record<string, unknown>;

  @PrimaryColumn('timestamptz')
  created_at: Date;

  @Column('text')
  prev_hash: string;

  @Column('text')
  entry_hash: string;
}
