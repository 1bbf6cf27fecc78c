import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { RestrictedPermissions } from '../../../common/auth/permissions.js';
import type { Mode } from '../../../common/context/principal.js';

@Entity({ name: 'api_keys', schema: 'platform' })
export class ApiKey {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  application_id: string;

  /** `secret` (`sk_…`, every permission) or `restricted` (`rk_…`, the levels in `permissions`). */
  @Column('text')
  kind: 'secret' | 'restricted';

  @Column('text', { nullable: true })
  name: string | null;

  /** A restricted key's level per resource group; null for a secret key. */
  @Column('jsonb', { nullable: true })
  permissions: RestrictedPermissions | null;

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

  /** Set on the old key when it is rolled: the key is refused from then on (E1243). */
  @Column('timestamptz', { nullable: true })
  expires_at: Date | null;

  /** The key that replaced this one when it was rolled. */
  @Column('uuid', { nullable: true })
  replaced_by: string | null;
}
