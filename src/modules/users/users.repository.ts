import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Membership, type Role } from './entities/membership.entity.js';
import { User } from './entities/user.entity.js';

export interface MembershipView {
  application_id: string;
  application_slug: string;
  application_name: string;
  role: Role;
}

export interface MembershipRow {
  application_id: string;
  role: Role;
}

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  async insert(user: Partial<User>): Promise<User> {
    const repo = this.db.getRepository(User);
    return repo.save(repo.create(user));
  }

  findById(id: string): Promise<User | null> {
    return this.db.getRepository(User).findOneBy({ id });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.db
      .getRepository(User)
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email })
      .getOne();
  }

  async setSuperuser(id: string, value: boolean): Promise<void> {
    await this.db.getRepository(User).update({ id }, { is_superuser: value });
  }

  /** Counts a failed login; at `max` failures the account is locked until `lockUntil` and the count restarts. */
  async recordFailure(id: string, max: number, lockUntil: Date): Promise<void> {
    await this.db.query(
      `UPDATE platform.users
          SET failed_logins = CASE WHEN failed_logins + 1 >= $2 THEN 0 ELSE failed_logins + 1 END,
              locked_until = CASE WHEN failed_logins + 1 >= $2 THEN $3::timestamptz ELSE locked_until END
        WHERE id = $1`,
      [id, max, lockUntil],
    );
  }

  async recordSuccess(id: string): Promise<void> {
    await this.db.query(
      `UPDATE platform.users SET failed_logins = 0, locked_until = NULL WHERE id = $1 AND (failed_logins <> 0 OR locked_until IS NOT NULL)`,
      [id],
    );
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Sets the user's role in the application; answers the role it had (null: it was no member). */
  async upsertMembership(
    membership: Omit<Membership, 'created_at' | 'updated_at'>,
    manager: EntityManager = this.db.manager,
  ): Promise<{ membership: Membership; previousRole: string | null }> {
    const [previous] = (await manager.query(
      `SELECT role FROM platform.memberships WHERE user_id = $1 AND application_id = $2 FOR UPDATE`,
      [membership.user_id, membership.application_id],
    )) as Array<{ role: string }>;
    await manager.query(
      `INSERT INTO platform.memberships (id, user_id, application_id, role) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, application_id) DO UPDATE SET role = EXCLUDED.role, updated_at = now()`,
      [membership.id, membership.user_id, membership.application_id, membership.role],
    );
    const saved = (await manager
      .getRepository(Membership)
      .findOneBy({ user_id: membership.user_id, application_id: membership.application_id }))!;
    return { membership: saved, previousRole: previous?.role ?? null };
  }

  findMembership(userId: string, applicationId: string): Promise<Membership | null> {
    return this.db.getRepository(Membership).findOneBy({ user_id: userId, application_id: applicationId });
  }

  memberships(userId: string): Promise<MembershipRow[]> {
    return this.db.query(`SELECT application_id, role FROM platform.memberships WHERE user_id = $1`, [userId]);
  }
}
