import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { RequestContext } from '../../common/context/request-context.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { isUuid, newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import type { CreateMeterDto } from './dto/meter.dto.js';
import { Meter } from './meter.entity.js';
import { MeterErrors } from './meter.errors.js';

export const METER_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    event_name: { type: 'text' },
    status: { type: 'text', values: ['active', 'inactive'] },
    created_at: { type: 'timestamp' },
  },
  sortable: ['created_at'],
  search: ['id', 'display_name', 'event_name'],
};

export function toMeterResponse(m: Meter) {
  return {
    id: m.id,
    object: 'billing.meter' as const,
    livemode: m.livemode,
    display_name: m.display_name,
    event_name: m.event_name,
    status: m.status,
    value_settings: { event_payload_key: m.event_payload_key },
    default_aggregation: { formula: m.aggregation },
    customer_mapping: { event_payload_key: 'customer', type: 'by_id' },
    created_at: m.created_at.toISOString(),
    updated_at: m.updated_at.toISOString(),
  };
}

const CACHE_MS = 5_000;

/** Meters of the current application and mode; active meters are cached briefly for ingestion. */
@Injectable()
export class MetersService {
  private readonly cache = new Map<string, { meter: Promise<Meter | null>; until: number }>();

  constructor(
    private readonly db: ModeDb,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  private get applicationId(): string {
    return this.context.application.id;
  }

  async create(dto: CreateMeterDto) {
    const now = this.clock.now();
    const repo = this.db.repository(Meter);
    try {
      const meter = await repo.save(
        repo.create({
          id: newId(),
          application_id: this.applicationId,
          display_name: dto.display_name,
          event_name: dto.event_name,
          event_payload_key: dto.value_settings.event_payload_key,
          aggregation: dto.default_aggregation?.formula ?? 'sum',
          status: 'active',
          created_at: now,
          updated_at: now,
        }),
      );
      return toMeterResponse(meter);
    } catch (err) {
      if (err instanceof QueryFailedError && (err as { code?: string }).code === '23505') {
        throw new AppError(MeterErrors.E8010, `A meter with event_name "${dto.event_name}" exists.`);
      }
      throw err;
    }
  }

  async get(id: string): Promise<Meter> {
    const meter = isUuid(id)
      ? await this.db.repository(Meter).findOneBy({ application_id: this.applicationId, id })
      : null;
    if (!meter) throw new AppError(Errors.E4004, `No meter with id "${id}".`);
    return meter;
  }

  async retrieve(id: string) {
    return toMeterResponse(await this.get(id));
  }

  list(query: ListQuery): Promise<ListEnvelope<ReturnType<typeof toMeterResponse>>> {
    const qb = this.db
      .repository(Meter)
      .createQueryBuilder('m')
      .where('m.application_id = :app', { app: this.applicationId });
    return runList(qb, METER_LIST, query, toMeterResponse);
  }

  async deactivate(id: string) {
    const meter = await this.get(id);
    if (meter.status !== 'inactive') {
      meter.status = 'inactive';
      meter.updated_at = this.clock.now();
      await this.db.repository(Meter).save(meter);
    }
    this.cache.delete(this.cacheKey(meter.event_name));
    return toMeterResponse(meter);
  }

  /** The meter for an event name (active or not), cached for a few seconds. */
  async byEventName(eventName: string): Promise<Meter | null> {
    const key = this.cacheKey(eventName);
    const hit = this.cache.get(key);
    const now = this.clock.nowMs();
    if (hit && hit.until > now) return hit.meter;
    // The lookup itself is cached, so concurrent misses (a batch of 100 events, or every
    // connection when the entry expires) share one query instead of each sending its own.
    const meter = this.db.repository(Meter).findOneBy({ application_id: this.applicationId, event_name: eventName });
    if (this.cache.size >= 10_000) this.cache.clear();
    const entry = { meter, until: now + CACHE_MS };
    this.cache.set(key, entry);
    try {
      return await meter;
    } catch (err) {
      if (this.cache.get(key) === entry) this.cache.delete(key);
      throw err;
    }
  }

  private cacheKey(eventName: string): string {
    return `${this.context.mode}:${this.applicationId}:${eventName}`;
  }
}
