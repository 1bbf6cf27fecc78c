import { randomInt } from 'node:crypto';
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
import { CouponsService } from '../coupons/coupons.service.js';
import { couponValid, toCouponResponse } from '../coupons/coupons.responses.js';
import type { Coupon } from '../coupons/entities/coupon.entity.js';
import { mergeMetadata, previousAttributes } from '../metadata.js';
import type { RedemptionInput } from '../redemption.js';
import type { PromotionCode } from './entities/promotion-code.entity.js';
import {
  IMMUTABLE_PROMOTION_CODE_FIELDS,
  type CreatePromotionCodeDto,
  type UpdatePromotionCodeDto,
} from './promotion-code.dto.js';
import { PromotionCodesRepository } from './promotion-codes.repository.js';
import { toPromotionCodeResponse, type PromotionCodeResponse } from './promotion-codes.responses.js';

export const PROMOTION_CODE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    code: ListFilters.text,
    coupon_id: ListFilters.uuid,
    active: ListFilters.boolean,
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'code'],
};

/** Generated codes avoid letters and digits that read alike (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const notFound = (id: string) => new AppError(Errors.E4004, `No promotion code with id "${id}".`);

/** A redeemed promotion code and the coupon to apply (both counted). */
export interface Redemption {
  promotionCode: PromotionCode;
  coupon: Coupon;
}

@Injectable()
export class PromotionCodesService {
  constructor(
    private readonly codes: PromotionCodesRepository,
    private readonly coupons: CouponsService,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
  ) {}

  async create(principal: Principal, dto: CreatePromotionCodeDto): Promise<PromotionCodeResponse> {
    const resumed = this.idempotency.resumes('promotion_code');
    if (resumed) return this.retrieve(principal, resumed);
    const applicationId = principal.application.id;
    const now = this.clock.now();
    const restrictions = dto.restrictions ?? {};
    if ((restrictions.minimum_amount === undefined) !== (restrictions.minimum_amount_currency === undefined)) {
      throw new AppError(E.E7640, 'Send restrictions.minimum_amount with restrictions.minimum_amount_currency.');
    }
    const expiresAt = dto.expires_at === undefined ? null : new Date(dto.expires_at);
    if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
      throw new AppError(E.E7641, `expires_at ${dto.expires_at} is not in the future.`);
    }
    const code = dto.code ?? generateCode();
    const { promotionCode, coupon } = await this.codes.transaction(async (manager) => {
      const coupon = await this.coupons.byIds(principal, [dto.coupon_id], manager).then((m) => m.get(dto.coupon_id));
      if (!coupon) throw new AppError(E.E7625, `No coupon with id "${dto.coupon_id}".`);
      if (!couponValid(coupon, now)) {
        throw new AppError(E.E7642, `Coupon "${coupon.id}" is deleted, expired or exhausted.`);
      }
      const inserted = await this.codes.insert(
        {
          id: newId(),
          application_id: applicationId,
          code,
          coupon_id: coupon.id,
          active: dto.active ?? true,
          max_redemptions: dto.max_redemptions ?? null,
          expires_at: expiresAt,
          times_redeemed: 0,
          first_time_transaction: restrictions.first_time_transaction ?? false,
          minimum_amount: restrictions.minimum_amount ?? null,
          minimum_amount_currency: restrictions.minimum_amount_currency ?? null,
          metadata: dto.metadata ?? {},
          created_at: now,
          updated_at: now,
        } as PromotionCode,
        manager,
      );
      if (!inserted) throw new AppError(E.E7630, `A promotion code "${code}" exists (compared case-insensitively).`);
      await this.events.record(manager, {
        applicationId,
        type: 'promotion_code.created',
        object: toPromotionCodeResponse(inserted, toCouponResponse(coupon, now)),
      });
      await this.idempotency.checkpoint(manager, 'promotion_code', inserted.id);
      return { promotionCode: inserted, coupon };
    });
    return toPromotionCodeResponse(promotionCode, toCouponResponse(coupon, now));
  }

  async retrieve(principal: Principal, id: string): Promise<PromotionCodeResponse> {
    const code = await this.codes.findById(principal.application.id, id);
    if (!code) throw notFound(id);
    return (await this.embed(principal, [code]))[0];
  }

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<PromotionCodeResponse>> {
    const page = await runList(this.codes.query(principal.application.id), PROMOTION_CODE_LIST, query, (c) => c);
    return { ...page, data: await this.embed(principal, page.data) };
  }

  /** POST /promotion_codes/{id}: active and metadata (E7643 for the rest). */
  async update(principal: Principal, id: string, dto: UpdatePromotionCodeDto): Promise<PromotionCodeResponse> {
    const immutable = IMMUTABLE_PROMOTION_CODE_FIELDS.filter((field) => dto[field] !== undefined);
    if (immutable.length > 0) {
      throw new AppError(E.E7643, `${immutable.join(', ')} of a promotion code cannot change.`);
    }
    const applicationId = principal.application.id;
    return this.codes.transaction(async (manager) => {
      const before = await this.codes.lockById(applicationId, id, manager);
      if (!before) throw notFound(id);
      const after: PromotionCode = {
        ...before,
        active: dto.active ?? before.active,
        metadata: mergeMetadata(before.metadata, dto.metadata),
      };
      const previous = previousAttributes(before, after, ['active', 'metadata']);
      if (Object.keys(previous).length === 0) return (await this.embed(principal, [before], manager))[0];
      after.updated_at = this.clock.now();
      await this.codes.update(
        applicationId,
        id,
        { active: after.active, metadata: after.metadata, updated_at: after.updated_at },
        manager,
      );
      const response = (await this.embed(principal, [after], manager))[0];
      await this.events.record(manager, {
        applicationId,
        type: 'promotion_code.updated',
        object: response,
        previous_attributes: previous,
      });
      return response;
    });
  }

  /**
   * For other modules, INSIDE their transaction: gives back one redemption of the promotion code
   * `id` and of its coupon (a subscription checkout that expired unpaid).
   */
  async release(manager: EntityManager, applicationId: string, id: string): Promise<void> {
    const promotionCode = await this.codes.findById(applicationId, id, manager);
    if (!promotionCode) return;
    await this.codes.release(applicationId, id, manager);
    await this.coupons.release(manager, applicationId, promotionCode.coupon_id);
  }

  /**
   * For other modules, INSIDE their transaction (`manager`): redeems the promotion code `code` (any
   * letter case) for a purchase of `input.amount` `input.currency` and answers the coupon to apply.
   * Both the code's and its coupon's times_redeemed are counted by conditional increments, so
   * neither ever passes its max_redemptions, whatever the concurrency; if the caller's transaction
   * rolls back, so do the counts. Refusals: E7631 unknown, E7632 inactive, E7633 expired, E7634
   * exhausted, E7637 first-time only, E7638 below the minimum amount, E7639 currency mismatch,
   * E7635 coupon expired or deleted, E7636 coupon exhausted.
   */
  async redeem(manager: EntityManager, scope: Scope, code: string, input: RedemptionInput): Promise<Redemption> {
    const promotionCode = await this.codes.findByCode(scope.application.id, code, manager);
    if (!promotionCode) throw new AppError(E.E7631, `No promotion code "${code}".`);
    const now = this.clock.now();
    this.checkRedeemable(promotionCode, input, now);
    // Deleted coupons included: redeeming one answers E7635, never a missing row.
    const coupon = (await this.coupons.byIds(scope, [promotionCode.coupon_id], manager)).get(promotionCode.coupon_id)!;
    this.coupons.checkRedeemable(coupon, input, now);
    const redeemed = await this.codes.redeem(scope.application.id, promotionCode.id, now, manager);
    if (!redeemed) {
      // Changed since it was read: deactivated, or a concurrent redemption took the last one.
      const current = await this.codes.findById(scope.application.id, promotionCode.id, manager);
      if (current) this.checkRedeemable(current, input, now);
      throw new AppError(E.E7634, `Promotion code "${promotionCode.code}" can no longer be redeemed.`);
    }
    return { promotionCode: redeemed, coupon: await this.coupons.redeemCoupon(manager, coupon, input) };
  }

  private checkRedeemable(p: PromotionCode, input: RedemptionInput, now: Date): void {
    if (!p.active) throw new AppError(E.E7632, `Promotion code "${p.code}" is inactive.`);
    if (p.expires_at !== null && p.expires_at.getTime() <= now.getTime()) {
      throw new AppError(E.E7633, `Promotion code "${p.code}" expired at ${p.expires_at.toISOString()}.`);
    }
    if (p.max_redemptions !== null && p.times_redeemed >= p.max_redemptions) {
      throw new AppError(E.E7634, `Promotion code "${p.code}" reached its max_redemptions (${p.max_redemptions}).`);
    }
    if (p.first_time_transaction && input.firstTimeTransaction !== true) {
      throw new AppError(E.E7637, `Promotion code "${p.code}" is only for a customer's first transaction.`);
    }
    if (p.minimum_amount !== null) {
      if (p.minimum_amount_currency !== input.currency) {
        throw new AppError(E.E7639, `Promotion code "${p.code}" needs an amount in ${p.minimum_amount_currency}.`);
      }
      if (input.amount < Number(p.minimum_amount)) {
        throw new AppError(
          E.E7638,
          `Promotion code "${p.code}" needs at least ${p.minimum_amount} ${p.minimum_amount_currency}.`,
        );
      }
    }
  }

  private async embed(scope: Scope, rows: PromotionCode[], manager?: EntityManager): Promise<PromotionCodeResponse[]> {
    const coupons = await this.coupons.byIds(
      scope,
      rows.map((r) => r.coupon_id),
      manager,
    );
    const now = this.clock.now();
    return rows.map((r) => toPromotionCodeResponse(r, toCouponResponse(coupons.get(r.coupon_id)!, now)));
  }
}

function generateCode(): string {
  return Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}
