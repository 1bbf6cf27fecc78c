import { currentTraceparent } from '../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CacheInvalidation } from '../../common/cache/invalidation.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { Clock } from '../../common/clock.js';
import type { Principal } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { validateBody } from '../../common/http/validation.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { errorBody, type ErrorBody } from '../../common/errors/error.filter.js';
import { newId } from '../../common/ids.js';
import { CUSTOMER_REFERENCE_CHANNEL, CustomersService } from '../customers/index.js';
import { BillingProviders } from './providers/billing-provider.js';
import { CreateMeterEventDto } from './dto/meter-event.dto.js';
import { parseMeterTimestamp } from './meter-timestamp.js';
import { MeterErrors } from './meter.errors.js';
import { MeterEventsRepository, type StoredEventRow } from './meter-events.repository.js';
import { toCreationResponse, toMeterEventResponse, type CreationResponse } from './meter.responses.js';
import type { EventRow } from './store-events.sql.js';
import { MetersService } from './meters.service.js';
import { EnforcedEvents, type EnforcedRow } from './enforced-events.js';
import type { Meter } from './entities/meter.entity.js';
import type { AllConfig } from '../../config/app.config.js';

interface CustomerReference {
  reference: string;
  provider: string;
}

/** A validated event, ready for one multi-row INSERT. */
interface ValidEvent extends EventRow {
  payload: Record<string, string>;
  /** Set when the meter enforces prepaid credit: the event is admitted against it (docs/BILLING.md). */
  credit?: { aggregation: Meter['aggregation'] };
}

const NUMERIC = /^-?\d{1,15}(\.\d{1,12})?$/;
const PAST_MS = 35 * 24 * 60 * 60 * 1000;
const FUTURE_MS = 5 * 60 * 1000;
const CUSTOMER_CACHE_MS = 60_000;

function parseTimestamp(raw: string): Date {
  const parsed = parseMeterTimestamp(raw);
  if ('date' in parsed) return parsed.date;
  throw new AppError(
    MeterErrors.E8006,
    parsed.problem === 'shape'
      ? `Invalid parameter "timestamp": "${raw.slice(0, 40)}" is neither YYYY-MM-DD HH:MM:SS (UTC) nor RFC 3339.`
      : `Invalid parameter "timestamp": "${raw}" is not a real date and time.`,
  );
}

/**
 * Meter event ingestion. An event is validated against its meter and customer (both cached
 * briefly), then stored together with its outbox row in one statement; the identifier is unique
 * per application and mode, so a repeat (also a concurrent one) finds the original and answers
 * with its response. Forwarding to the billing provider happens later, from the outbox.
 */
@Injectable()
export class MeterEventsService {
  /** Customer references by mode, application and customer; a refused customer (E8008, E8009) is not kept. */
  private readonly references: TtlCache<CustomerReference>;
  private readonly publicUrl: string;

  constructor(
    private readonly events: MeterEventsRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly meters: MetersService,
    private readonly customers: CustomersService,
    private readonly providers: BillingProviders,
    private readonly enforced: EnforcedEvents,
    invalidation: CacheInvalidation,
    config: ConfigService<AllConfig, true>,
  ) {
    this.publicUrl = config.get('app.publicUrl', { infer: true });
    this.references = new TtlCache(CUSTOMER_CACHE_MS, 50_000, () => clock.nowMs());
    // A changed reference (published as `<application id>:<customer id>`) is forgotten in both modes on every replica.
    invalidation.subscribe(CUSTOMER_REFERENCE_CHANNEL, (key) => {
      if (key === null) return this.references.clear();
      this.references.delete(`test:${key}`);
      this.references.delete(`live:${key}`);
    });
  }

  async create(principal: Principal, dto: CreateMeterEventDto): Promise<CreationResponse> {
    const event = await this.validate(principal, dto);
    const [result] = await this.store(principal, [event]);
    if (result instanceof AppError) throw result;
    return result;
  }

  /** Each event validated and answered on its own, in order; the valid ones stored in one statement. */
  async createBatch(
    principal: Principal,
    raw: Array<Record<string, unknown>>,
  ): Promise<Array<CreationResponse | ErrorBody>> {
    if (raw.length === 0 || raw.length > 100) {
      throw new AppError(
        MeterErrors.E8011,
        `Invalid parameter "events": a batch holds 1 to 100 events, got ${raw.length}.`,
      );
    }
    const outcomes = await Promise.all(
      raw.map((body, i) =>
        this.parse(body, i)
          .then((dto) => this.validate(principal, dto))
          .then(
            (event) => ({ event }),
            (error: unknown) => {
              if (error instanceof AppError) return { error };
              throw error;
            },
          ),
      ),
    );
    const valid = outcomes.flatMap((o) => ('event' in o ? [o.event] : []));
    const stored = valid.length ? await this.store(principal, valid) : [];
    const byIdentifier = new Map(valid.map((e, i) => [e.identifier, stored[i]]));
    const requestId = this.context.requestId ?? '';
    return outcomes.map((o) => {
      const answer = 'event' in o ? byIdentifier.get(o.event.identifier)! : o.error;
      return answer instanceof AppError ? errorBody(answer, requestId, this.publicUrl) : answer;
    });
  }

  async retrieve(principal: Principal, id: string) {
    const row = await this.events.findById(principal.application.id, id);
    if (!row) throw new AppError(Errors.E4004, `No meter event with id "${id}".`);
    return toMeterEventResponse(row, principal.livemode);
  }

  /** A batch member gets the same body validation as a single event, named by its position. */
  private parse(body: Record<string, unknown>, index: number): Promise<CreateMeterEventDto> {
    return validateBody(CreateMeterEventDto, body, `events[${index}]`);
  }

  private async validate(principal: Principal, dto: CreateMeterEventDto): Promise<ValidEvent> {
    const meter = await this.meters.byEventName(principal, dto.event_name);
    if (!meter) throw new AppError(MeterErrors.E8001, `No meter has event_name "${dto.event_name}".`);
    if (meter.status !== 'active')
      throw new AppError(MeterErrors.E8002, `The meter for "${dto.event_name}" is inactive.`);

    const key = meter.event_payload_key;
    const keys = Object.keys(dto.payload);
    if (!keys.includes(key))
      throw new AppError(MeterErrors.E8003, `Invalid parameter "payload": it must carry "${key}".`);
    const extra = keys.find((k) => k !== key);
    if (extra !== undefined) {
      throw new AppError(
        MeterErrors.E8004,
        `Invalid parameter "payload.${extra.slice(0, 64)}": only "${key}" is allowed.`,
      );
    }
    const value = dto.payload[key];
    if (typeof value !== 'string' || !NUMERIC.test(value)) {
      throw new AppError(
        MeterErrors.E8005,
        `Invalid parameter "payload.${key}": the value must be a string holding a number, e.g. "25".`,
      );
    }

    const now = this.clock.nowMs();
    const occurredAt = dto.timestamp === undefined ? new Date(now - (now % 1000)) : parseTimestamp(dto.timestamp);
    if (occurredAt.getTime() < now - PAST_MS || occurredAt.getTime() > now + FUTURE_MS) {
      throw new AppError(MeterErrors.E8007, `Invalid parameter "timestamp": ${dto.timestamp} is out of range.`);
    }

    const { reference, provider } = await this.referenceOf(principal, dto.customer_id);
    return {
      id: newId(),
      identifier: dto.identifier ?? `mev_${newId().replace(/-/g, '')}`,
      meterId: meter.id,
      eventName: meter.event_name,
      customerId: dto.customer_id,
      payload: { [key]: value, customer: reference },
      value,
      occurredAt,
      provider,
      traceparent: currentTraceparent(),
      ...(meter.enforce_credit ? { credit: { aggregation: meter.aggregation } } : {}),
    };
  }

  private referenceOf(principal: Principal, customerId: string): Promise<CustomerReference> {
    const cacheKey = `${principal.mode}:${principal.application.id}:${customerId}`;
    return this.references.getOrLoad(cacheKey, () => this.lookUpReference(principal, customerId));
  }

  private async lookUpReference(principal: Principal, customerId: string): Promise<CustomerReference> {
    const customer = await this.customers.find(principal.application.id, customerId);
    if (!customer) throw new AppError(MeterErrors.E8008, `No customer with id "${customerId}".`).on('customer_id');
    if (!customer.provider_reference || !customer.provider) {
      if (principal.livemode && !this.providers.hasLive(principal.country)) {
        throw this.providers.noLiveProvider(principal.country);
      }
      throw new AppError(MeterErrors.E8009, `Customer "${customerId}" has no billing provider reference.`);
    }
    // Which provider serves the event follows the customer's provider, so an event is always
    // forwarded where its reference means something.
    this.providers.named(customer.provider);
    return { reference: customer.provider_reference, provider: customer.provider };
  }

  /**
   * One statement stores the plain events and their outbox rows; identifiers already taken (by an
   * earlier or a concurrent request, or twice in one batch) resolve to the stored original. Events
   * of a credit-enforced meter go through {@link EnforcedEvents}, which admits each against the
   * customer's credit (a refused one is answered with its error, the others stand).
   */
  private async store(principal: Principal, events: ValidEvent[]): Promise<Array<CreationResponse | AppError>> {
    const now = this.clock.now();
    const applicationId = principal.application.id;
    const plain = events.filter((e) => !e.credit);
    const byIdentifier = plain.length
      ? await this.events.store(applicationId, now, plain)
      : new Map<string, StoredEventRow>();
    const answers: Array<CreationResponse | AppError> = [];
    // Enforced events in the batch's order, a run of one customer and meter at a time: an earlier
    // event's cost counts against a later one's.
    let run: EnforcedRow[] = [];
    const flushRun = async () => {
      if (!run.length) return;
      const stored = await this.enforced.store(run);
      run = [];
      for (const answer of stored) answers.push(answer instanceof AppError ? answer : toCreationResponse(answer));
    };
    for (const e of events) {
      if (!e.credit) {
        await flushRun();
        const row = byIdentifier.get(e.identifier);
        if (!row) throw new AppError(Errors.E5000);
        answers.push(toCreationResponse(row));
        continue;
      }
      if (run.length && (run[0].customerId !== e.customerId || run[0].meterId !== e.meterId)) await flushRun();
      const { credit, ...row } = e;
      run.push({ ...row, applicationId, createdAt: now, mode: principal.mode, aggregation: credit!.aggregation });
    }
    await flushRun();
    return answers;
  }
}
