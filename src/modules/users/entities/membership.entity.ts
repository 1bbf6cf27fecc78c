import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** A user's role in one application; any role gives privilege `user` on that application. */
@Entity({ name: 'memberships', schema: 'platform' })
export class Membership {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') user_id: string;
  @Column('uuid') application_id: string;
  @Column('text') role: Role;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at: Date;
}
