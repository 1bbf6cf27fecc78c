import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'oauth_codes', schema: 'platform' })
export class OAuthCode {
  @PrimaryColumn('uuid') id: string;
  @Column('bytea') code_hash: Buffer;
  @Column('uuid') client_id: string;
  @Column('uuid') user_id: string;
  @Column('text') redirect_uri: string;
  @Column('text', { array: true }) scope: string[];
  @Column('text', { nullable: true }) code_challenge: string | null;
  @Column('text', { nullable: true }) code_challenge_method: string | null;
  @Column('timestamptz') expires_at: Date;
  /** Set by the one exchange a code allows; a second exchange revokes what the first issued. */
  @Column('timestamptz', { nullable: true }) used_at: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
}
