import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { Clock } from '../../common/clock.js';
import type { Principal, Scope } from '../../common/context/principal.js';
import { CacheInvalidation } from '../../common/cache/invalidation.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../common/list/index.js';
import type { CreateMeterDto, UpdateMeterDto } from './dto/meter.dto.js';
import type { Meter } from './entities/meter.entity.js';
import { MeterErrors } from './meter.errors.js';
import { toMeterResponse, type MeterResponse } from './meter.responses.js';
import { MetersRepository } from './meters.repository.js';

export const METER_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    event_name: ListFilters.text,
    status: ListFilters.oneOf(['active', 'inactive']),
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'display_name', 'event_name'],
};

const CACHE_MS = 5_000;
const METER_CHANNEL = 'meter';

/** Meters of the principal's application and mode; active meters are cached briefly for ingestion. */
@Injectable()
export class MetersService {
  /** By mode, application and event name; concurrent misses (a batch of 100 events) share one query. */
  private readonly cache: TtlCache<Meter | null>;

  constructor(
    private readonly meters: MetersRepository,
    private readonly clock: Clock,
    private readonly invalidation: CacheInvalidation,
    private readonly audit: AuditRecorder,
  ) {
    this.cache = new TtlCache(CACHE_MS, 10_000, () => clock.nowMs());
    // A deactivation on any replica reaches every replica's cache (CACHE_MS bounds it only without a message).
    invalidation.subscribe(METER_CHANNEL, (key) => (key === null ? this.cache.clear() : this.cache.delete(key)));
  }

  async create(principal: Principal, dto: CreateMeterDto): Promise<MeterResponse> {
    const now = this.clock.now();
    return this.meters.transaction(async (manager) => {
      const meter = await this.meters.insert(
        {
          id: newId(),
          application_id: principal.application.id,
          display_name: dto.display_name,
          event_name: dto.event_name,
          event_payload_key: dto.value_settings.event_payload_key,
          aggregation: dto.default_aggregation?.formula ?? 'sum',
          status: 'active',
          enforce_credit: dto.enforce_credit ?? false,
          created_at: now,
          updated_at: now,
        } as Meter,
        manager,
      );
      if (!meter) throw new AppError(MeterErrors.E8010, `A meter with event_name "${dto.event_name}" exists.`);
      const created = toMeterResponse(meter);
      await this.audit.record(manager, {
        applicationId: meter.application_id,
        action: 'billing.meter.created',
        target: { type: created.object, id: meter.id },
        after: created,
      });
      return created;
    });
  }

  /** The meter of the principal's application, or E4004 (path ids are checked by the controller's IdParam). */
  async get(principal: Principal, id: string): Promise<Meter> {
    const meter = await this.meters.findById(principal.application.id, id);
    if (!meter) throw new AppError(Errors.E4004, `No meter with id "${id}".`);
    return meter;
  }

  /** For other modules (a metered price names its meter): the meter of the scope's application and mode, or null. */
  find(scope: Scope, id: string): Promise<Meter | null> {
    return this.meters.findById(scope.application.id, id);
  }

  /** For billing's jobs (no request): the meter `id` of the application in the current mode, or null. */
  findOf(applicationId: string, id: string, manager?: EntityManager): Promise<Meter | null> {
    return this.meters.findById(applicationId, id, manager);
  }

  async retrieve(principal: Principal, id: string): Promise<MeterResponse> {
    return toMeterResponse(await this.get(principal, id));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<MeterResponse>> {
    return runList(this.meters.query(principal.application.id), METER_LIST, query, toMeterResponse);
  }

  async deactivate(principal: Principal, id: string): Promise<MeterResponse> {
    const meter = await this.get(principal, id);
    if (meter.status !== 'inactive') {
      meter.status = 'inactive';
      meter.updated_at = this.clock.now();
      await this.meters.transaction(async (manager) => {
        await this.meters.deactivate(principal.application.id, meter.id, meter.updated_at, manager);
        await this.audit.record(manager, {
          applicationId: meter.application_id,
          action: 'billing.meter.deactivated',
          target: { type: 'billing.meter', id: meter.id },
          before: { status: 'active' },
          after: { status: 'inactive' },
        });
      });
    }
    await this.invalidation.publish(METER_CHANNEL, this.cacheKey(principal, meter.event_name));
    return toMeterResponse(meter);
  }

  /**
   * POST /meters/{id}: `display_name` and `enforce_credit`. Every replica's ingestion cache forgets
   * the meter, so enforcement starts (or stops) within the cache message's delivery.
   */
  async update(principal: Principal, id: string, dto: UpdateMeterDto): Promise<MeterResponse> {
    const meter = await this.get(principal, id);
    const changes = {
      display_name: dto.display_name ?? meter.display_name,
      enforce_credit: dto.enforce_credit ?? meter.enforce_credit,
    };
    if (changes.display_name !== meter.display_name || changes.enforce_credit !== meter.enforce_credit) {
      const before = { display_name: meter.display_name, enforce_credit: meter.enforce_credit };
      Object.assign(meter, changes, { updated_at: this.clock.now() });
      await this.meters.transaction(async (manager) => {
        await this.meters.update(
          principal.application.id,
          meter.id,
          { ...changes, updated_at: meter.updated_at },
          manager,
        );
        await this.audit.record(manager, {
          applicationId: meter.application_id,
          action: 'billing.meter.updated',
          target: { type: 'billing.meter', id: meter.id },
          before,
          after: changes,
        });
      });
      await this.invalidation.publish(METER_CHANNEL, this.cacheKey(principal, meter.event_name));
    }
    return toMeterResponse(meter);
  }

  /** The meter for an event name (active or not), cached for a few seconds. */
  byEventName(principal: Principal, eventName: string): Promise<Meter | null> {
    const applicationId = principal.application.id;
    return this.cache.getOrLoad(this.cacheKey(principal, eventName), () =>
      this.meters.findByEventName(applicationId, eventName),
    );
  }

  private cacheKey(principal: Principal, eventName: string): string {
    return `${principal.mode}:${principal.application.id}:${eventName}`;
  }
}
