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
import { scalingFactorOf } from '../../../ledger/index.js';
import { BillingErrors as E } from '../../billing.errors.js';
import { decimalText } from '../../pricing/decimal.js';
import { mergeMetadata, previousAttributes } from '../metadata.js';
import type { RedemptionInput } from '../redemption.js';
import { IMMUTABLE_COUPON_FIELDS, type CreateCouponDto, type UpdateCouponDto } from './coupon.dto.js';
import { CouponsRepository } from './coupons.repository.js';
import { couponValid, toCouponResponse, type CouponResponse } from './coupons.responses.js';
import type { Coupon } from './entities/coupon.entity.js';

export const COUPON_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    duration: ListFilters.oneOf(['once', 'repeating', 'forever']),
    currency: ListFilters.currency,
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'name'],
};

const notFound = (id: string) => new AppError(Errors.E4004, `No coupon with id "${id}".`);

@Injectable()
export class CouponsService {
  constructor(
    private readonly coupons: CouponsRepository,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
  ) {}

  async create(principal: Principal, dto: CreateCouponDto): Promise<CouponResponse> {
    const resumed = this.idempotency.resumes('coupon');
    if (resumed) return this.retrieve(principal, resumed);
    const now = this.clock.now();
    const terms = this.checkTerms(dto, now);
    const applicationId = principal.application.id;
    const coupon = await this.coupons.transaction(async (manager) => {
      const inserted = await this.coupons.insert(
        {
          id: newId(),
          application_id: applicationId,
          name: dto.name ?? null,
          ...terms,
          max_redemptions: dto.max_redemptions ?? null,
          times_redeemed: 0,
          deleted_at: null,
          metadata: dto.metadata ?? {},
          created_at: now,
          updated_at: now,
        } as Coupon,
        manager,
      );
      await this.events.record(manager, {
        applicationId,
        type: 'coupon.created',
        object: toCouponResponse(inserted, now),
      });
      await this.idempotency.checkpoint(manager, 'coupon', inserted.id);
      return inserted;
    });
    return toCouponResponse(coupon, now);
  }

  async retrieve(principal: Principal, id: string): Promise<CouponResponse> {
    return toCouponResponse(await this.get(principal, id), this.clock.now());
  }

  /** The coupon (not deleted) of the scope's application and mode, or E4004. */
  async get(scope: Scope, id: string, manager?: EntityManager): Promise<Coupon> {
    const coupon = await this.coupons.findById(scope.application.id, id, manager);
    if (!coupon) throw notFound(id);
    return coupon;
  }

  /** Coupons by id, deleted ones included (for the promotion codes that embed theirs). */
  async byIds(scope: Scope, ids: string[], manager?: EntityManager): Promise<Map<string, Coupon>> {
    return new Map((await this.coupons.findMany(scope.application.id, ids, manager)).map((c) => [c.id, c]));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<CouponResponse>> {
    const now = this.clock.now();
    return runList(this.coupons.query(principal.application.id), COUPON_LIST, query, (c) => toCouponResponse(c, now));
  }

  /** POST /coupons/{id}: name and metadata only (E7626 for the discount and its limits). */
  async update(principal: Principal, id: string, dto: UpdateCouponDto): Promise<CouponResponse> {
    const immutable = IMMUTABLE_COUPON_FIELDS.filter((field) => dto[field] !== undefined);
    if (immutable.length > 0) {
      throw new AppError(E.E7626, `${immutable.join(', ')} of a coupon cannot change: create another coupon.`);
    }
    const applicationId = principal.application.id;
    return this.coupons.transaction(async (manager) => {
      const before = await this.coupons.lockById(applicationId, id, manager);
      if (!before) throw notFound(id);
      const after: Coupon = {
        ...before,
        name: dto.name ?? before.name,
        metadata: mergeMetadata(before.metadata, dto.metadata),
      };
      const now = this.clock.now();
      const previous = previousAttributes(before, after, ['name', 'metadata']);
      if (Object.keys(previous).length === 0) return toCouponResponse(before, now);
      after.updated_at = now;
      await this.coupons.update(
        applicationId,
        id,
        { name: after.name, metadata: after.metadata, updated_at: now },
        manager,
      );
      const response = toCouponResponse(after, now);
      await this.events.record(manager, {
        applicationId,
        type: 'coupon.updated',
        object: response,
        previous_attributes: previous,
      });
      return response;
    });
  }

  /**
   * DELETE /coupons/{id}: the coupon stops being redeemable (its promotion codes with it) and is no
   * longer found; what it already discounted stays. Records coupon.deleted.
   */
  async delete(principal: Principal, id: string) {
    const applicationId = principal.application.id;
    return this.coupons.transaction(async (manager) => {
      const coupon = await this.coupons.lockById(applicationId, id, manager);
      if (!coupon) throw notFound(id);
      const now = this.clock.now();
      await this.coupons.update(applicationId, id, { deleted_at: now, updated_at: now }, manager);
      const deleted: Coupon = { ...coupon, deleted_at: now, updated_at: now };
      await this.events.record(manager, {
        applicationId,
        type: 'coupon.deleted',
        object: toCouponResponse(deleted, now),
      });
      return { id, object: 'coupon' as const, livemode: coupon.livemode, deleted: true };
    });
  }

  /**
   * For other modules, INSIDE their transaction (`manager`): redeems the coupon `id` for a purchase
   * of `input.amount` `input.currency`, counting the redemption atomically (never past
   * max_redemptions), and answers the coupon to apply. E7625 unknown coupon, E7635 deleted or past
   * redeem_by, E7636 exhausted, E7639 an amount_off coupon of another currency. A failure after
   * the count (in the caller's later steps) rolls the count back with the caller's transaction.
   */
  async redeem(manager: EntityManager, scope: Scope, id: string, input: RedemptionInput): Promise<Coupon> {
    const coupon = await this.coupons.findById(scope.application.id, id, manager);
    if (!coupon) throw new AppError(E.E7625, `No coupon with id "${id}".`);
    return this.redeemCoupon(manager, coupon, input);
  }

  /** Checks and counts one redemption of `coupon` (loaded by the caller in `manager`'s transaction). */
  async redeemCoupon(manager: EntityManager, coupon: Coupon, input: RedemptionInput): Promise<Coupon> {
    const now = this.clock.now();
    this.checkRedeemable(coupon, input, now);
    const redeemed = await this.coupons.redeem(coupon.application_id, coupon.id, now, manager);
    if (redeemed) return redeemed;
    // Changed since it was read (a concurrent redemption took the last one, or it was deleted).
    const current = await this.coupons.findById(coupon.application_id, coupon.id, manager);
    if (current) this.checkRedeemable(current, input, now);
    throw new AppError(current ? E.E7636 : E.E7635, `Coupon "${coupon.id}" can no longer be redeemed.`);
  }

  /** For other modules, INSIDE their transaction: gives back one redemption of coupon `id` (a purchase that never happened). */
  release(manager: EntityManager, applicationId: string, id: string): Promise<void> {
    return this.coupons.release(applicationId, id, manager);
  }

  /** Whether `coupon` can be redeemed for `input` at `now` (no count): the refusal's precise code, else nothing. */
  checkRedeemable(coupon: Coupon, input: RedemptionInput, now: Date): void {
    if (coupon.deleted_at !== null || (coupon.redeem_by !== null && coupon.redeem_by.getTime() <= now.getTime())) {
      throw new AppError(E.E7635, `Coupon "${coupon.id}" expired or was deleted.`);
    }
    if (!couponValid(coupon, now)) {
      throw new AppError(E.E7636, `Coupon "${coupon.id}" reached its max_redemptions (${coupon.max_redemptions}).`);
    }
    if (coupon.currency !== null && coupon.currency !== input.currency) {
      throw new AppError(
        E.E7639,
        `Coupon "${coupon.id}" is in ${coupon.currency}; the amount is in ${input.currency}.`,
      );
    }
  }

  /** The discount terms of a new coupon, each rule with its own code. */
  private checkTerms(dto: CreateCouponDto, now: Date) {
    if ((dto.percent_off === undefined) === (dto.amount_off === undefined)) {
      throw new AppError(E.E7620, 'Send exactly one of percent_off and amount_off.');
    }
    if ((dto.amount_off !== undefined) !== (dto.currency !== undefined)) {
      throw new AppError(E.E7621, 'amount_off needs currency, and percent_off takes none.');
    }
    let percentOff: string | null = null;
    if (dto.percent_off !== undefined) {
      percentOff = decimalText(dto.percent_off, 2);
      if (percentOff === null || dto.percent_off <= 0 || dto.percent_off > 100) {
        throw new AppError(
          E.E7622,
          `percent_off ${dto.percent_off} is not more than 0 and at most 100 with 2 decimals.`,
        );
      }
    }
    const duration = dto.duration ?? 'once';
    if ((duration === 'repeating') !== (dto.duration_in_months !== undefined)) {
      throw new AppError(E.E7623, 'duration_in_months is required with duration "repeating" and allowed only with it.');
    }
    const redeemBy = dto.redeem_by === undefined ? null : new Date(dto.redeem_by);
    if (redeemBy !== null && redeemBy.getTime() <= now.getTime()) {
      throw new AppError(E.E7624, `redeem_by ${dto.redeem_by} is not in the future.`);
    }
    return {
      percent_off: percentOff,
      amount_off: dto.amount_off ?? null,
      currency: dto.currency ?? null,
      scaling_factor: dto.currency === undefined ? null : scalingFactorOf(dto.currency),
      duration,
      duration_in_months: dto.duration_in_months ?? null,
      redeem_by: redeemBy,
    };
  }
}
