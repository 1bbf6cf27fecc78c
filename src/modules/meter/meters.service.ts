import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { RequestContext } from '../../common/context/request-context.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { isUuid, newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import type { CreateMeterDto } from './dto/meter.dto.js';
import type { Meter } from './entities/meter.entity.js';
import { MeterErrors } from './meter.errors.js';
import { MetersRepository } from './meters.repository.js';

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
  /** By mode, application and event name; concurrent misses (a batch of 100 events) share one query. */
  private readonly cache: TtlCache<Meter | null>;

  constructor(
    private readonly meters: MetersRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {
    this.cache = new TtlCache(CACHE_MS, 10_000, () => clock.nowMs());
  }

  private get applicationId(): string {
    return this.context.application.id;
  }

  async create(dto: CreateMeterDto) {
    const now = this.clock.now();
    const meter = await this.meters.insert({
      id: newId(),
      application_id: this.applicationId,
      display_name: dto.display_name,
      event_name: dto.event_name,
      event_payload_key: dto.value_settings.event_payload_key,
      aggregation: dto.default_aggregation?.formula ?? 'sum',
      status: 'active',
      created_at: now,
      updated_at: now,
    } as Meter);
    if (!meter) throw new AppError(MeterErrors.E8010, `A meter with event_name "${dto.event_name}" exists.`);
    return toMeterResponse(meter);
  }

  async get(id: string): Promise<Meter> {
    const meter = isUuid(id) ? await this.meters.findById(this.applicationId, id) : null;
    if (!meter) throw new AppError(Errors.E4004, `No meter with id "${id}".`);
    return meter;
  }

  async retrieve(id: string) {
    return toMeterResponse(await this.get(id));
  }

  list(query: ListQuery): Promise<ListEnvelope<ReturnType<typeof toMeterResponse>>> {
    return runList(this.meters.query(this.applicationId), METER_LIST, query, toMeterResponse);
  }

  async deactivate(id: string) {
    const meter = await this.get(id);
    if (meter.status !== 'inactive') {
      meter.status = 'inactive';
      meter.updated_at = this.clock.now();
      await this.meters.deactivate(this.applicationId, meter.id, meter.updated_at);
    }
    this.cache.delete(this.cacheKey(meter.event_name));
    return toMeterResponse(meter);
  }

  /** The meter for an event name (active or not), cached for a few seconds. */
  byEventName(eventName: string): Promise<Meter | null> {
    const applicationId = this.applicationId;
    return this.cache.getOrLoad(this.cacheKey(eventName), () => this.meters.findByEventName(applicationId, eventName));
  }

  private cacheKey(eventName: string): string {
    return `${this.context.mode}:${this.applicationId}:${eventName}`;
  }
}
