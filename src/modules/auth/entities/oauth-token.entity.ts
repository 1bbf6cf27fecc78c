import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One issued access/refresh pair. Pairs descending from one authorization code share `family_id`;
 * revocation is recorded on the family (platform.oauth_token_families), which every check reads.
 */
@Entity({ name: 'oauth_tokens', schema: 'platform' })
export class OAuthToken {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') family_id: string;
  @Column('uuid', { nullable: true }) code_id: string | null;
  @Column('uuid') client_id: string;
  @Column('uuid') user_id: string;
  @Column('bytea') access_hash: Buffer;
  @Column('timestamptz') access_expires_at: Date;
  @Column('bytea', { nullable: true }) refresh_hash: Buffer | null;
  @Column('timestamptz', { nullable: true }) refresh_expires_at: Date | null;
  @Column('text', { array: true }) scope: string[];
  /** The refresh token was exchanged for a new pair; presenting it again revokes the family. */
  @Column('timestamptz', { nullable: true }) rotated_at: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
}
