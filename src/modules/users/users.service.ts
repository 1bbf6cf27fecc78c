import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { ApplicationsService } from '../applications/index.js';
import { ROLES, type Role } from './entities/membership.entity.js';
import type { User } from './entities/user.entity.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import { UsersRepository } from './users.repository.js';
import { UsersErrors } from './users.errors.js';

/** Failed sign-ins allowed per account before it is locked for LOCK_MS. */
export const MAX_FAILED_LOGINS = 5;
export const LOCK_MS = 15 * 60 * 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIN_PASSWORD = 10;

export function toUserResponse(
  user: User,
  memberships: Array<{ application_id: string; application_slug: string; application_name: string; role: Role }>,
) {
  return {
    id: user.id,
    object: 'user' as const,
    email: user.email,
    name: user.name,
    is_superuser: user.is_superuser,
    memberships: memberships.map((m) => ({
      object: 'membership' as const,
      application: { id: m.application_id, slug: m.application_slug, name: m.application_name },
      role: m.role,
    })),
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
  };
}

export type UserResponse = ReturnType<typeof toUserResponse>;

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly applications: ApplicationsService,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {}

  async create(input: { email: string; name?: string; password: string; superuser?: boolean }): Promise<UserResponse> {
    const email = input.email.trim();
    if (!EMAIL.test(email)) throw new AppError(Errors.E2000, 'email must be an email address.');
    if (input.password.length < MIN_PASSWORD)
      throw new AppError(Errors.E2000, `password must be at least ${MIN_PASSWORD} characters.`);
    if (await this.users.findByEmail(email)) throw new AppError(Errors.E4090, `A user with email "${email}" exists.`);
    let user: User;
    try {
      user = await this.users.insert({
        id: newId(),
        email,
        name: input.name?.trim() || email.split('@')[0],
        password_hash: await hashPassword(input.password),
        is_superuser: input.superuser === true,
        failed_logins: 0,
        locked_until: null,
      });
    } catch (err) {
      // Two creations of one email at once: the unique index decides, the loser gets the same answer.
      if ((err as { code?: string }).code === '23505')
        throw new AppError(Errors.E4090, `A user with email "${email}" exists.`);
      throw err;
    }
    return toUserResponse(user, []);
  }

  /** Makes the user a member of the application with `role` (changing the role if already one). */
  async grant(input: { email: string; app: string; role: string }): Promise<UserResponse> {
    if (!(ROLES as readonly string[]).includes(input.role))
      throw new AppError(Errors.E2000, `role must be one of ${ROLES.join(', ')}.`);
    const user = await this.byEmail(input.email);
    const application = await this.applications.bySlug(input.app);
    if (!application) throw new AppError(Errors.E3001, `No application has the slug "${input.app}".`);
    await this.users.transaction(async (manager) => {
      const { previousRole } = await this.users.upsertMembership(
        { id: newId(), user_id: user.id, application_id: application.id, role: input.role as Role },
        manager,
      );
      if (previousRole === input.role) return;
      await this.audit.record(manager, {
        applicationId: application.id,
        livemode: null,
        action: previousRole === null ? 'membership.created' : 'membership.role_changed',
        target: { type: 'user', id: user.id },
        before: previousRole === null ? null : { role: previousRole },
        after: { role: input.role },
      });
    });
    return this.profile(user.id);
  }

  async setSuperuser(email: string, value: boolean): Promise<UserResponse> {
    const user = await this.byEmail(email);
    await this.users.setSuperuser(user.id, value);
    return this.profile(user.id);
  }

  /**
   * The sign-in check. Throttled per account: after MAX_FAILED_LOGINS wrong passwords the account
   * refuses every attempt (even a right one) until LOCK_MS has passed on the service clock.
   */
  async verifyLogin(email: string, password: string): Promise<User> {
    const user = EMAIL.test(email.trim()) ? await this.users.findByEmail(email.trim()) : null;
    if (!user) {
      await verifyAgainstDummy(password);
      throw new AppError(UsersErrors.E1226);
    }
    const now = this.clock.nowMs();
    if (user.locked_until && user.locked_until.getTime() > now) throw new AppError(UsersErrors.E1227);
    if (!(await verifyPassword(user.password_hash, password))) {
      await this.users.recordFailure(user.id, MAX_FAILED_LOGINS, new Date(now + LOCK_MS));
      throw new AppError(UsersErrors.E1226);
    }
    await this.users.recordSuccess(user.id);
    return user;
  }

  async profile(userId: string): Promise<UserResponse> {
    const user = await this.users.findById(userId);
    if (!user) throw new AppError(Errors.E4004, 'No such user.');
    const memberships = await this.users.memberships(userId);
    const applications = await this.applications.byIds(memberships.map((m) => m.application_id));
    const views = memberships
      .filter((m) => applications.has(m.application_id))
      .map((m) => {
        const application = applications.get(m.application_id)!;
        return {
          application_id: m.application_id,
          application_slug: application.slug,
          application_name: application.name,
          role: m.role,
        };
      })
      .sort((a, b) => (a.application_slug < b.application_slug ? -1 : a.application_slug > b.application_slug ? 1 : 0));
    return toUserResponse(user, views);
  }

  findById(userId: string): Promise<User | null> {
    return this.users.findById(userId);
  }

  async roleIn(userId: string, applicationId: string): Promise<Role | null> {
    return (await this.users.findMembership(userId, applicationId))?.role ?? null;
  }

  private async byEmail(email: string): Promise<User> {
    const user = await this.users.findByEmail(email.trim());
    if (!user) throw new AppError(Errors.E4004, `No user with email "${email}".`);
    return user;
  }
}
