import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { AccessErrors } from '../../../common/auth/access.errors.js';
import {
  PERMISSION_LEVELS,
  RESOURCE_GROUPS,
  type PermissionLevel,
  type RestrictedPermissions,
} from '../../../common/auth/permissions.js';
import { CacheInvalidation } from '../../../common/cache/invalidation.js';
import { TtlCache } from '../../../common/cache/ttl-cache.js';
import { Clock } from '../../../common/clock.js';
import type { Mode } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newId } from '../../../common/ids.js';
import { type ListEnvelope, type ListQuery, type ListSpec, runList } from '../../../common/list/index.js';
import type { AllConfig } from '../../../config/app.config.js';
import type { ApiKey } from '../entities/api-key.entity.js';
import { generateSecretKey, type ParsedKey, parseSecretKey, sameHash } from '../secret-key.js';
import { ApiKeysRepository } from './api-keys.repository.js';

export interface VerifiedKey {
  keyId: string;
  applicationId: string;
  mode: Mode;
  /** A restricted key's levels; null for a secret key (every permission). */
  permissions: RestrictedPermissions | null;
  /** When a rolled key stops working (ms since the epoch); null while it has not been rolled. */
  expiresAtMs: number | null;
}

/** What the owner of the application is shown of a key: never its secret (shown once, at creation or roll). */
export interface RestrictedKeyResponse {
  id: string;
  object: 'restricted_key';
  name: string | null;
  livemode: boolean;
  /** `rk_test_…` with all but the last 4 characters hidden. */
  redacted_key: string;
  permissions: RestrictedPermissions;
  status: 'active' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  replaced_by: string | null;
  /** The key itself: only in the answers of creation and roll. */
  secret?: string;
}

export const RESTRICTED_KEY_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    status: { type: 'text', values: ['active', 'revoked'] },
    created_at: { type: 'timestamp' },
  },
  sortable: ['created_at'],
  search: ['name'],
};

/** The longest a rolled key keeps working beside its replacement (Stripe offers up to 7 days). */
export const MAX_EXPIRE_OLD_SECONDS = 7 * 24 * 3600;

const API_KEY_CHANNEL = 'api_key';
/** Parsed keys kept at most (ApiKeysService.parsed). */
const PARSED_KEYS_MAX = 10_000;
/** A key that is unknown, revoked or of the other mode: not kept, so a new key works at once. */
const NOT_VERIFIED = new Error('key not verified');

/**
 * The life of API keys (secret `sk_…` and restricted `rk_…`): verify on every request, create,
 * update, roll and revoke. Each change is one method with one transaction, and every change that
 * can narrow what a key may do (revoke, roll, new permissions) empties the verified-key cache on
 * every replica before it answers.
 */
@Injectable()
export class ApiKeysService {
  /**
   * Verified keys by hash, for API_KEY_CACHE_MS (5 s by default). A change (here, through the API or the CLI, on any
   * replica) empties this cache on every replica through {@link CacheInvalidation}, so a revoked key
   * is refused everywhere within milliseconds; API_KEY_CACHE_MS bounds it only when no message arrives.
   */
  private readonly verified: TtlCache<VerifiedKey>;

  /**
   * Well-formed keys as presented, to their cache key (the base64 of their SHA-256): a key sends
   * every request the same string, so its checksum and hash are worked out once, not per request.
   * Pure (what a key string parses to never changes), bounded (emptied when full) and emptied with
   * the verified keys on every change, so a key that is no longer used is not kept in memory past
   * the next change.
   */
  private readonly parsed = new Map<string, { parsed: ParsedKey; cacheKey: string }>();

  constructor(
    private readonly repository: ApiKeysRepository,
    private readonly clock: Clock,
    private readonly invalidation: CacheInvalidation,
    config: ConfigService<AllConfig, true>,
    private readonly audit: AuditRecorder,
  ) {
    this.verified = new TtlCache(config.get('app.apiKeyCacheMs', { infer: true }), 10_000, () => clock.nowMs());
    // Changes are rare: forgetting every verified key (one lookup each on its next use) keeps
    // the message free of anything derived from a secret.
    invalidation.subscribe(API_KEY_CHANNEL, () => {
      this.verified.clear();
      this.parsed.clear();
    });
  }

  /**
   * Every request verifies its key, so a verified key is remembered for API_KEY_CACHE_MS (keyed by its
   * hash, never the key); unknown or revoked keys are not cached, so a new key works at once. A
   * rolled key past its `expires_at` answers `expired` (checked on every use, cached or not).
   */
  async verify(key: string): Promise<VerifiedKey | 'expired' | null> {
    const known = this.parsed.get(key) ?? this.parse(key);
    if (!known) return null;
    const { parsed, cacheKey } = known;
    let verified: VerifiedKey;
    try {
      verified = await this.verified.getOrLoad(cacheKey, async () => {
        const row = await this.repository.findByPrefix(parsed.prefix);
        if (!row || row.status !== 'active' || row.mode !== parsed.mode || !sameHash(row.secret_hash, parsed.hash)) {
          throw NOT_VERIFIED;
        }
        return {
          keyId: row.id,
          applicationId: row.application_id,
          mode: row.mode,
          permissions: row.kind === 'restricted' ? row.permissions : null,
          expiresAtMs: row.expires_at ? row.expires_at.getTime() : null,
        };
      });
    } catch (err) {
      if (err === NOT_VERIFIED) return null;
      throw err;
    }
    return verified.expiresAtMs !== null && verified.expiresAtMs <= this.clock.nowMs() ? 'expired' : verified;
  }

  private parse(key: string): { parsed: ParsedKey; cacheKey: string } | null {
    const parsed = parseSecretKey(key);
    if (!parsed) return null;
    const known = { parsed, cacheKey: parsed.hash.toString('base64') };
    if (this.parsed.size >= PARSED_KEYS_MAX) this.parsed.clear();
    this.parsed.set(key, known);
    return known;
  }

  /** A new secret key (`sk_…`, every permission) of `mode`; the key is in the answer only. */
  createSecretKey(applicationId: string, mode: Mode): Promise<{ key: string; row: ApiKey }> {
    return this.repository.transaction((manager) => this.insertSecretKey(manager, applicationId, mode));
  }

  /**
   * A new secret key stored in the caller's transaction (`manager`) with its audit row: how
   * `apps:create` makes an application's two keys with it.
   */
  async insertSecretKey(
    manager: EntityManager,
    applicationId: string,
    mode: Mode,
  ): Promise<{ key: string; row: ApiKey }> {
    const made = await this.insertNew(manager, applicationId, mode, 'secret');
    await this.auditKey(manager, 'created', made.row, null, made.row);
    return made;
  }

  /** A new restricted key (`rk_…`) with `permissions` (every group not named: none). */
  async createRestrictedKey(
    applicationId: string,
    mode: Mode,
    input: { name?: string | null; permissions: Record<string, unknown> },
  ): Promise<RestrictedKeyResponse> {
    const permissions = normalizePermissions(input.permissions, {});
    const { key, row } = await this.repository.transaction(async (manager) => {
      const made = await this.insertNew(manager, applicationId, mode, 'restricted', {
        name: input.name ?? null,
        permissions,
      });
      await this.auditKey(manager, 'created', made.row, null, made.row);
      return made;
    });
    return { ...this.toResponse(row), secret: key };
  }

  list(applicationId: string, mode: Mode, query: ListQuery): Promise<ListEnvelope<RestrictedKeyResponse>> {
    return runList(this.repository.listQuery(applicationId, mode, 'restricted'), RESTRICTED_KEY_LIST, query, (row) =>
      this.toResponse(row),
    );
  }

  async retrieve(applicationId: string, mode: Mode, id: string): Promise<RestrictedKeyResponse> {
    const row = await this.repository.find(applicationId, mode, id, 'restricted');
    if (!row) throw notFound(id);
    return this.toResponse(row);
  }

  /** New name and/or permissions (merged over the current ones); takes effect on every replica before the answer. */
  async updateRestrictedKey(
    applicationId: string,
    mode: Mode,
    id: string,
    input: { name?: string | null; permissions?: Record<string, unknown> },
  ): Promise<RestrictedKeyResponse> {
    const row = await this.repository.transaction(async (manager) => {
      const current = await this.lockActive(manager, applicationId, mode, id, 'restricted');
      if (input.name === undefined && input.permissions === undefined) return current;
      const updated = await this.repository.update(manager, current.id, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.permissions === undefined
          ? {}
          : { permissions: normalizePermissions(input.permissions, current.permissions ?? {}) }),
      });
      await this.auditKey(manager, 'updated', updated, current, updated);
      return updated;
    });
    await this.invalidation.publish(API_KEY_CHANNEL, row.id);
    return this.toResponse(row);
  }

  /**
   * A new key of the same kind, mode, name and permissions replaces key `id`; the old one keeps
   * working for `expireOldInSeconds` (0: refused at once, at most MAX_EXPIRE_OLD_SECONDS).
   */
  async rollKey(
    applicationId: string,
    mode: Mode,
    id: string,
    expireOldInSeconds: number,
    kind?: ApiKey['kind'],
  ): Promise<{ key: string; row: ApiKey; oldExpiresAt: Date }> {
    if (!Number.isInteger(expireOldInSeconds) || expireOldInSeconds < 0 || expireOldInSeconds > MAX_EXPIRE_OLD_SECONDS)
      throw new AppError(
        Errors.E2000,
        `Invalid parameter "expire_old_in_seconds": an integer from 0 to ${MAX_EXPIRE_OLD_SECONDS}.`,
      );
    const result = await this.repository.transaction(async (manager) => {
      const old = await this.lockActive(manager, applicationId, mode, id, kind);
      const fresh = await this.insertNew(manager, applicationId, mode, old.kind, {
        name: old.name,
        permissions: old.permissions,
      });
      const row = fresh.row;
      const oldExpiresAt = new Date(this.clock.nowMs() + expireOldInSeconds * 1000);
      const rolled = await this.repository.update(manager, old.id, { expires_at: oldExpiresAt, replaced_by: row.id });
      await this.auditKey(manager, 'rolled', old, old, rolled, { replaced_by: row.id, new_prefix: row.prefix });
      await this.auditKey(manager, 'created', row, null, row, { replaces: old.id });
      return { key: fresh.key, row, oldExpiresAt };
    });
    await this.invalidation.publish(API_KEY_CHANNEL, id);
    return result;
  }

  /** Rolls restricted key `id` (the API's answer: the new key, its secret shown once). */
  async rollRestrictedKey(
    applicationId: string,
    mode: Mode,
    id: string,
    expireOldInSeconds: number,
  ): Promise<RestrictedKeyResponse> {
    const { key, row } = await this.rollKey(applicationId, mode, id, expireOldInSeconds, 'restricted');
    return { ...this.toResponse(row), secret: key };
  }

  /** Revokes key `id` at once, on every replica before the answer. */
  async revokeKey(applicationId: string, mode: Mode, id: string, kind?: ApiKey['kind']): Promise<ApiKey> {
    const row = await this.repository.transaction(async (manager) => {
      const current = await this.repository.find(applicationId, mode, id, kind, manager);
      if (!current) throw notFound(id);
      if (current.status === 'revoked') return current;
      const revoked = await this.repository.update(manager, current.id, {
        status: 'revoked',
        revoked_at: this.clock.now(),
      });
      await this.auditKey(manager, 'revoked', revoked, current, revoked);
      return revoked;
    });
    await this.invalidation.publish(API_KEY_CHANNEL, row.id);
    return row;
  }

  async revokeRestrictedKey(applicationId: string, mode: Mode, id: string): Promise<RestrictedKeyResponse> {
    return this.toResponse(await this.revokeKey(applicationId, mode, id, 'restricted'));
  }

  /** The key with this public prefix (or the key itself), for the CLI; null when there is none. */
  async findByKeyOrPrefix(keyOrPrefix: string): Promise<ApiKey | null> {
    return this.repository.findByPrefix(parseSecretKey(keyOrPrefix)?.prefix ?? keyOrPrefix);
  }

  /** Every key of an application (secret and restricted, both modes), for the CLI's listing. */
  listAll(applicationId: string, mode?: Mode): Promise<ApiKey[]> {
    return this.repository.listAll(applicationId, mode);
  }

  toResponse(row: ApiKey): RestrictedKeyResponse {
    const expired = row.expires_at !== null && row.expires_at.getTime() <= this.clock.nowMs();
    return {
      id: row.id,
      object: 'restricted_key',
      name: row.name,
      livemode: row.mode === 'live',
      redacted_key: `${row.prefix.slice(0, 8)}${'*'.repeat(8)}${row.last4}`,
      permissions: normalizePermissions(row.permissions ?? {}, {}),
      status: row.status === 'revoked' ? 'revoked' : expired ? 'expired' : 'active',
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at?.toISOString() ?? null,
      revoked_at: row.revoked_at?.toISOString() ?? null,
      replaced_by: row.replaced_by,
    };
  }

  /** A new key of `kind` (its secret made here, only its hash stored) in `manager`'s transaction; not audited here. */
  private async insertNew(
    manager: EntityManager,
    applicationId: string,
    mode: Mode,
    kind: ApiKey['kind'],
    fields: Pick<Partial<ApiKey>, 'name' | 'permissions'> = {},
  ): Promise<{ key: string; row: ApiKey }> {
    const generated = generateSecretKey(mode, kind === 'restricted' ? 'rk' : 'sk');
    const row = await this.repository.insert(manager, {
      id: newId(),
      application_id: applicationId,
      kind,
      ...fields,
      mode,
      prefix: generated.prefix,
      secret_hash: generated.hash,
      last4: generated.last4,
      status: 'active',
    });
    return { key: generated.key, row };
  }

  /**
   * A key change's audit row, in its transaction (docs/AUDIT.md): `api_key.<change>` for a secret
   * key, `restricted_key.<change>` for a restricted one, with what an auditor needs to tell keys
   * apart (public prefix, last four, name, permissions, status, expiry), never the key or its hash.
   */
  private auditKey(
    manager: EntityManager,
    change: 'created' | 'updated' | 'rolled' | 'revoked',
    key: ApiKey,
    before: ApiKey | null,
    after: ApiKey,
    metadata?: Record<string, unknown>,
  ): Promise<void> {
    const kind = key.kind === 'restricted' ? 'restricted_key' : 'api_key';
    const visible = (k: ApiKey) => ({
      prefix: k.prefix,
      last4: k.last4,
      mode: k.mode,
      status: k.status,
      expires_at: k.expires_at?.toISOString() ?? null,
      ...(k.kind === 'restricted' ? { name: k.name, permissions: k.permissions } : {}),
    });
    return this.audit.record(manager, {
      applicationId: key.application_id,
      livemode: key.mode === 'live',
      // Only restricted keys are updated (a secret key has no name or permissions): no `api_key.updated`.
      action: `${kind}.${change}` as Exclude<`${typeof kind}.${typeof change}`, 'api_key.updated'>,
      target: { type: kind, id: key.id },
      ...(before ? { before: visible(before) } : {}),
      after: visible(after),
      ...(metadata ? { metadata } : {}),
    });
  }

  private async lockActive(
    manager: EntityManager,
    applicationId: string,
    mode: Mode,
    id: string,
    kind?: ApiKey['kind'],
  ): Promise<ApiKey> {
    const row = await this.repository.find(applicationId, mode, id, kind, manager);
    if (!row) throw notFound(id);
    if (row.status !== 'active' || row.expires_at !== null || row.replaced_by !== null) {
      throw new AppError(AccessErrors.E1246, `Key "${id}" is ${row.status === 'revoked' ? 'revoked' : 'rolled'}.`);
    }
    return row;
  }
}

function notFound(id: string): AppError {
  return new AppError(Errors.E4004, `No key with id "${id}".`);
}

/**
 * `input` over `base`, every resource group present (unnamed: none). An unknown group or level is
 * E1245 naming it: a typo must not leave a key with less (or more) than its owner meant.
 */
export function normalizePermissions(
  input: Record<string, unknown>,
  base: Partial<RestrictedPermissions>,
): RestrictedPermissions {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new AppError(AccessErrors.E1245, 'permissions must be an object of resource group to level.').on(
      'permissions',
    );
  }
  const out = Object.fromEntries(RESOURCE_GROUPS.map((g) => [g, base[g] ?? 'none'])) as RestrictedPermissions;
  for (const [group, level] of Object.entries(input)) {
    if (!(RESOURCE_GROUPS as readonly string[]).includes(group)) {
      throw new AppError(
        AccessErrors.E1245,
        `Unknown resource group "${group}"; the groups are ${RESOURCE_GROUPS.join(', ')}.`,
      ).on(`permissions.${group}`);
    }
    if (!(PERMISSION_LEVELS as readonly unknown[]).includes(level)) {
      throw new AppError(AccessErrors.E1245, `The level of "${group}" must be none, read or write.`).on(
        `permissions.${group}`,
      );
    }
    out[group as keyof RestrictedPermissions] = level as PermissionLevel;
  }
  return out;
}
