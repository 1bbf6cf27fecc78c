import { TtlCache } from '../../common/cache/ttl-cache.js';
import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import type { ApplicationRef, Mode } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { ApplicationResolver } from '../../common/tenancy/application-resolver.js';
import { ApplicationsRepository } from './applications.repository.js';
import { ApplicationHooks } from './application-hooks.js';
import { ApiKeysService } from './keys/api-keys.service.js';
import { parseSecretKey } from './secret-key.js';

export interface CreatedApplication {
  application: ApplicationRef;
  keys: Record<Mode, string>;
}

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
const COUNTRY = /^[A-Z]{2}$/;
const CACHE_MS = 5_000;

@Injectable()
export class ApplicationsService extends ApplicationResolver {
  /** Applications by slug (an unknown slug too), for CACHE_MS: every request resolves its slug. */
  private readonly cache = new TtlCache<ApplicationRef | null>(CACHE_MS, 10_000);

  constructor(
    private readonly repository: ApplicationsRepository,
    private readonly hooks: ApplicationHooks,
    private readonly keys: ApiKeysService,
    private readonly audit: AuditRecorder,
  ) {
    super();
  }

  /** Application lookups are cached for a few seconds: every request resolves its slug. */
  bySlug(slug: string): Promise<ApplicationRef | null> {
    return this.cache.getOrLoad(slug, async () => {
      const row = SLUG.test(slug) ? await this.repository.findBySlug(slug) : null;
      return row && { id: row.id, slug: row.slug, name: row.name, countries: row.countries };
    });
  }

  /** The countries of application `id`, read in the caller's transaction (billing's period close). */
  countriesIn(manager: EntityManager, id: string): Promise<string[]> {
    return this.repository.countriesVia(manager, id);
  }

  /** Application `id`'s slug through the caller's transaction (jobs that build hosted URLs outside a request). */
  slugIn(manager: EntityManager, id: string): Promise<string | null> {
    return this.repository.slugVia(manager, id);
  }

  /** Applications by id (for the records that name theirs, e.g. a user's memberships). */
  async byIds(ids: string[]): Promise<Map<string, ApplicationRef>> {
    const rows = await this.repository.findByIds([...new Set(ids)]);
    return new Map(rows.map((a) => [a.id, { id: a.id, slug: a.slug, name: a.name, countries: a.countries }]));
  }

  async create(input: { slug: string; name?: string; countries: string[] }): Promise<CreatedApplication> {
    const slug = input.slug.toLowerCase();
    if (!SLUG.test(slug)) {
      throw new AppError(
        Errors.E2000,
        'slug must be 2-63 characters of a-z, 0-9 and "-", starting with a letter or digit.',
      );
    }
    const countries = [...new Set(input.countries.map((c) => c.trim().toUpperCase()))];
    if (countries.length === 0 || !countries.every((c) => COUNTRY.test(c))) {
      throw new AppError(Errors.E2000, 'countries must be a non-empty list of two-letter country codes.');
    }
    if (await this.repository.findBySlug(slug))
      throw new AppError(Errors.E4090, `An application with slug "${slug}" exists.`);

    const { application, keys } = await this.repository.transaction(async (manager) => {
      const app = await this.repository.insertApplication(manager, {
        id: newId(),
        slug,
        name: input.name ?? slug,
        countries,
      });
      const test = await this.keys.insertSecretKey(manager, app.id, 'test');
      const live = await this.keys.insertSecretKey(manager, app.id, 'live');
      await this.audit.record(manager, {
        applicationId: app.id,
        livemode: null,
        action: 'application.created',
        target: { type: 'application', id: app.id },
        after: { slug, name: app.name, countries },
      });
      return { application: app, keys: { test: test.key, live: live.key } };
    });
    const ref: ApplicationRef = { id: application.id, slug, name: application.name, countries };
    await this.hooks.created.emit(ref);
    this.cache.delete(slug);
    return { application: ref, keys };
  }

  async createKey(slug: string, mode: Mode): Promise<{ key: string; prefix: string }> {
    const application = await this.repository.findBySlug(slug);
    if (!application) throw new AppError(Errors.E3001, `No application has the slug "${slug}".`);
    const { key, row } = await this.keys.createSecretKey(application.id, mode);
    return { key, prefix: row.prefix };
  }

  /** Revokes a secret or restricted key, by the key itself or by its public prefix (the CLI's way). */
  async revokeKey(keyOrPrefix: string): Promise<{ prefix: string; revoked: boolean }> {
    const row = await this.keys.findByKeyOrPrefix(keyOrPrefix);
    const prefix = row?.prefix ?? parseSecretKey(keyOrPrefix)?.prefix ?? keyOrPrefix;
    if (!row || row.status !== 'active') return { prefix, revoked: false };
    await this.keys.revokeKey(row.application_id, row.mode, row.id);
    return { prefix, revoked: true };
  }
}
