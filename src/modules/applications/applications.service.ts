import { TtlCache } from '../../common/cache/ttl-cache.js';
import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { CacheInvalidation } from '../../common/cache/invalidation.js';
import { Clock } from '../../common/clock.js';
import type { ApplicationRef, Mode } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { ApplicationResolver } from '../../common/tenancy/application-resolver.js';
import type { AllConfig } from '../../config/app.config.js';
import { ApplicationsRepository } from './applications.repository.js';
import { ApplicationHooks } from './application-hooks.js';
import type { ApiKey } from './entities/api-key.entity.js';
import { generateSecretKey, parseSecretKey, sameHash } from './secret-key.js';

export interface CreatedApplication {
  application: ApplicationRef;
  keys: Record<Mode, string>;
}

export interface VerifiedKey {
  keyId: string;
  applicationId: string;
  mode: Mode;
}

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
const COUNTRY = /^[A-Z]{2}$/;
const CACHE_MS = 5_000;
const API_KEY_CHANNEL = 'api_key';
/** A key that is unknown, revoked or of the other mode: not kept, so a new key works at once. */
const NOT_VERIFIED = new Error('key not verified');

@Injectable()
export class ApplicationsService extends ApplicationResolver {
  /** Applications by slug (an unknown slug too), for CACHE_MS: every request resolves its slug. */
  private readonly cache = new TtlCache<ApplicationRef | null>(CACHE_MS, 10_000);

  /**
   * Verified keys by hash, for API_KEY_CACHE_MS (5 s by default). A revocation (here, through the API or the CLI, on any
   * replica) empties this cache on every replica through {@link CacheInvalidation}, so a revoked key
   * is refused everywhere within milliseconds; API_KEY_CACHE_MS bounds it only when no message arrives.
   */
  private readonly verified: TtlCache<VerifiedKey>;

  constructor(
    private readonly repository: ApplicationsRepository,
    private readonly hooks: ApplicationHooks,
    clock: Clock,
    private readonly invalidation: CacheInvalidation,
    config: ConfigService<AllConfig, true>,
    private readonly audit: AuditRecorder,
  ) {
    super();
    this.verified = new TtlCache(config.get('app.apiKeyCacheMs', { infer: true }), 10_000, () => clock.nowMs());
    // Revocations are rare: forgetting every verified key (one lookup each on its next use) keeps
    // the message free of anything derived from a secret.
    invalidation.subscribe(API_KEY_CHANNEL, () => this.verified.clear());
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

    const test = generateSecretKey('test');
    const live = generateSecretKey('live');
    const application = await this.repository.transaction(async (manager) => {
      const app = await this.repository.insertApplication(manager, {
        id: newId(),
        slug,
        name: input.name ?? slug,
        countries,
      });
      for (const [mode, key] of [
        ['test', test],
        ['live', live],
      ] as const) {
        const inserted = await this.repository.insertKey(manager, {
          id: newId(),
          application_id: app.id,
          mode,
          prefix: key.prefix,
          secret_hash: key.hash,
          last4: key.last4,
          status: 'active',
        });
        await this.auditKey(manager, 'api_key.created', inserted);
      }
      await this.audit.record(manager, {
        applicationId: app.id,
        livemode: null,
        action: 'application.created',
        target: { type: 'application', id: app.id },
        after: { slug, name: app.name, countries },
      });
      return app;
    });
    const ref: ApplicationRef = { id: application.id, slug, name: application.name, countries };
    await this.hooks.created.emit(ref);
    this.cache.delete(slug);
    return { application: ref, keys: { test: test.key, live: live.key } };
  }

  async createKey(slug: string, mode: Mode): Promise<{ key: string; prefix: string }> {
    const application = await this.repository.findBySlug(slug);
    if (!application) throw new AppError(Errors.E3001, `No application has the slug "${slug}".`);
    const generated = generateSecretKey(mode);
    await this.repository.transaction(async (manager) => {
      const inserted = await this.repository.insertKey(manager, {
        id: newId(),
        application_id: application.id,
        mode,
        prefix: generated.prefix,
        secret_hash: generated.hash,
        last4: generated.last4,
        status: 'active',
      });
      await this.auditKey(manager, 'api_key.created', inserted);
    });
    return { key: generated.key, prefix: generated.prefix };
  }

  /** Revokes by the key itself or by its public prefix. */
  async revokeKey(keyOrPrefix: string): Promise<{ prefix: string; revoked: boolean }> {
    const prefix = parseSecretKey(keyOrPrefix)?.prefix ?? keyOrPrefix;
    const revoked = await this.repository.transaction(async (manager) => {
      const row = await this.repository.revokeKey(manager, prefix);
      if (row) await this.auditKey(manager, 'api_key.revoked', row);
      return row;
    });
    if (revoked) await this.invalidation.publish(API_KEY_CHANNEL, revoked.id);
    return { prefix, revoked: revoked !== null };
  }

  /** A key's audit row: its public prefix and last four characters, never the key or its hash. */
  private auditKey(manager: EntityManager, action: string, key: ApiKey): Promise<void> {
    return this.audit.record(manager, {
      applicationId: key.application_id,
      livemode: key.mode === 'live',
      action,
      target: { type: 'api_key', id: key.id },
      after: { prefix: key.prefix, last4: key.last4, mode: key.mode, status: key.status },
    });
  }

  /**
   * Every request verifies its key, so a verified key is remembered for API_KEY_CACHE_MS (keyed by its
   * hash, never the key); unknown or revoked keys are not cached, so a new key works at once.
   */
  async verifyKey(key: string): Promise<VerifiedKey | null> {
    const parsed = parseSecretKey(key);
    if (!parsed) return null;
    try {
      return await this.verified.getOrLoad(parsed.hash.toString('base64'), async () => {
        const row = await this.repository.findKeyByPrefix(parsed.prefix);
        if (!row || row.status !== 'active' || row.mode !== parsed.mode || !sameHash(row.secret_hash, parsed.hash)) {
          throw NOT_VERIFIED;
        }
        return { keyId: row.id, applicationId: row.application_id, mode: row.mode };
      });
    } catch (err) {
      if (err === NOT_VERIFIED) return null;
      throw err;
    }
  }
}
