import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

import type { Role } from '../../../common/auth/permissions.js';

export { ROLES, type Role } from '../../../common/auth/permissions.js';

/** A user's role in one application; any role gives privilege `user` on that application, limited by ROLE_RULES. */
@Entity({ name: 'memberships', schema: 'platform' })
export class Membership {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') user_id: string;
  @Column('uuid') application_id: string;
  @Column('text') role: Role;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at: Date;
}
