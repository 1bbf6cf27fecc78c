import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'users', schema: 'platform' })
export class User {
  @PrimaryColumn('uuid') id: string;
  @Column('text') email: string;
  @Column('text') name: string;
  /** argon2id, PHC string form. */
  @Column('text') password_hash: string;
  /** A superuser reaches every application. */
  @Column('boolean') is_superuser: boolean;
  @Column('integer') failed_logins: number;
  @Column('timestamptz', { nullable: true }) locked_until: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at: Date;
}
