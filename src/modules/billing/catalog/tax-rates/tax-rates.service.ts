import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../../common/clock.js';
import type { Principal, Scope } from '../../../../common/context/principal.js';
import { AppError } from '../../../../common/errors/app-error.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../../common/events/event-recorder.js';
import { IdempotencyScope } from '../../../../common/idempotency/idempotency-scope.js';
import { newId } from '../../../../common/ids.js';
import {
  ListFilters,
  runList,
  type ListEnvelope,
  type ListQuery,
  type ListSpec,
} from '../../../../common/list/index.js';
import { BillingErrors as E } from '../../billing.errors.js';
import { decimalText } from '../../pricing/decimal.js';
import { mergeMetadata, previousAttributes } from '../metadata.js';
import type { TaxRate } from './entities/tax-rate.entity.js';
import type { CreateTaxRateDto, UpdateTaxRateDto } from './tax-rate.dto.js';
import { TaxRatesRepository } from './tax-rates.repository.js';
import { toTaxRateResponse, type TaxRateResponse } from './tax-rates.responses.js';

export const TAX_RATE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    active: ListFilters.boolean,
    inclusive: ListFilters.boolean,
    country: ListFilters.country,
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'display_name', 'jurisdiction', 'description'],
};

const MUTABLE = ['display_name', 'description', 'country', 'jurisdiction', 'active', 'metadata'] as const;

const notFound = (id: string) => new AppError(Errors.E4004, `No tax rate with id "${id}".`);

@Injectable()
export class TaxRatesService {
  constructor(
    private readonly rates: TaxRatesRepository,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
  ) {}

  async create(principal: Principal, dto: CreateTaxRateDto): Promise<TaxRateResponse> {
    const resumed = this.idempotency.resumes('tax_rate');
    if (resumed) return this.retrieve(principal, resumed);
    const percentage = decimalText(dto.percentage, 4);
    if (percentage === null || dto.percentage > 100) {
      throw new AppError(E.E7650, `percentage ${dto.percentage} is not from 0 to 100 with at most 4 decimals.`);
    }
    const applicationId = principal.application.id;
    const now = this.clock.now();
    const rate = await this.rates.transaction(async (manager) => {
      const inserted = await this.rates.insert(
        {
          id: newId(),
          application_id: applicationId,
          display_name: dto.display_name,
          description: dto.description ?? null,
          percentage,
          inclusive: dto.inclusive,
          country: dto.country ?? null,
          jurisdiction: dto.jurisdiction ?? null,
          active: dto.active ?? true,
          metadata: dto.metadata ?? {},
          created_at: now,
          updated_at: now,
        } as TaxRate,
        manager,
      );
      await this.events.record(manager, {
        applicationId,
        type: 'tax_rate.created',
        object: toTaxRateResponse(inserted),
      });
      await this.idempotency.checkpoint(manager, 'tax_rate', inserted.id);
      return inserted;
    });
    return toTaxRateResponse(rate);
  }

  async retrieve(principal: Principal, id: string): Promise<TaxRateResponse> {
    const rate = await this.rates.findById(principal.application.id, id);
    if (!rate) throw notFound(id);
    return toTaxRateResponse(rate);
  }

  /**
   * For other modules (subscriptions' default_tax_rates, invoicing): the tax rates `ids` name, in
   * their order, each active and of the scope's application and mode; E7652 names the first unknown
   * id, E7653 the first inactive rate. With `manager`, read in the caller's transaction.
   */
  async findUsable(scope: Scope, ids: string[], manager?: EntityManager): Promise<TaxRate[]> {
    const found = new Map((await this.rates.findMany(scope.application.id, ids, manager)).map((r) => [r.id, r]));
    return ids.map((id) => {
      const rate = found.get(id);
      if (!rate) throw new AppError(E.E7652, `No tax rate with id "${id}".`);
      if (!rate.active) throw new AppError(E.E7653, `Tax rate "${id}" is inactive.`);
      return rate;
    });
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<TaxRateResponse>> {
    return runList(this.rates.query(principal.application.id), TAX_RATE_LIST, query, toTaxRateResponse);
  }

  /** POST /tax_rates/{id}: names, place, active and metadata; percentage and inclusive never change (E7651). */
  async update(principal: Principal, id: string, dto: UpdateTaxRateDto): Promise<TaxRateResponse> {
    if (dto.percentage !== undefined || dto.inclusive !== undefined) {
      throw new AppError(E.E7651, 'percentage and inclusive of a tax rate never change: create another tax rate.');
    }
    const applicationId = principal.application.id;
    return this.rates.transaction(async (manager) => {
      const before = await this.rates.lockById(applicationId, id, manager);
      if (!before) throw notFound(id);
      const after: TaxRate = {
        ...before,
        display_name: dto.display_name ?? before.display_name,
        description: dto.description ?? before.description,
        country: dto.country ?? before.country,
        jurisdiction: dto.jurisdiction ?? before.jurisdiction,
        active: dto.active ?? before.active,
        metadata: mergeMetadata(before.metadata, dto.metadata),
      };
      const previous = previousAttributes(before, after, [...MUTABLE]);
      if (Object.keys(previous).length === 0) return toTaxRateResponse(before);
      after.updated_at = this.clock.now();
      await this.rates.update(
        applicationId,
        id,
        {
          display_name: after.display_name,
          description: after.description,
          country: after.country,
          jurisdiction: after.jurisdiction,
          active: after.active,
          metadata: after.metadata,
          updated_at: after.updated_at,
        },
        manager,
      );
      const response = toTaxRateResponse(after);
      await this.events.record(manager, {
        applicationId,
        type: 'tax_rate.updated',
        object: response,
        previous_attributes: previous,
      });
      return response;
    });
  }
}
