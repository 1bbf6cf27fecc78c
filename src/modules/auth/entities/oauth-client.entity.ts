import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'oauth_clients', schema: 'platform' })
export class OAuthClient {
  @PrimaryColumn('uuid') id: string;
  /** The public identifier clients send as `client_id`. */
  @Column('text') client_id: string;
  @Column('text') name: string;
  /** `public` clients (browser, mobile) have no secret and must use PKCE S256. */
  @Column('text') type: 'confidential' | 'public';
  @Column('bytea', { nullable: true }) secret_hash: Buffer | null;
  @Column('text', { array: true }) redirect_uris: string[];
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
}
