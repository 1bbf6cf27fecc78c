import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { Clock } from '../../../common/clock.js';
import { AppError } from '../../../common/errors/app-error.js';
import { countryOf, type Scope } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { CheckoutsService } from './checkouts.service.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { toPaymentLinkResponse, type CheckoutResponse, type PaymentLinkResponse } from '../checkout.responses.js';
import type { CreatePaymentLinkDto } from '../dto/checkout.dto.js';
import type { PaymentLink } from '../entities/payment-link.entity.js';
import { PaymentLinksRepository } from './payment-links.repository.js';
import { HostedUrls } from './hosted-urls.js';
import { TargetsService } from '../targets/targets.service.js';

export const PAYMENT_LINK_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    target_type: ListFilters.oneOf(['invoice', 'payment_intent']),
    target_id: ListFilters.uuid,
    active: ListFilters.boolean,
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'target_id'],
};

@Injectable()
export class PaymentLinksService {
  constructor(
    private readonly repository: PaymentLinksRepository,
    private readonly targets: TargetsService,
    private readonly checkouts: CheckoutsService,
    private readonly urls: HostedUrls,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {}

  /** A link to a payable target (same checks as a checkout); each visit opens a fresh checkout. */
  async create(scope: Scope, dto: CreatePaymentLinkDto): Promise<PaymentLinkResponse> {
    const country = countryOf(scope);
    const target = await this.targets.load(scope.application.id, dto.target_type, dto.target_id);
    this.targets.assertPayable(target, country);
    const now = this.clock.now();
    const record = {
      id: newId(),
      application_id: scope.application.id,
      country,
      target_type: dto.target_type,
      target_id: target.record.id,
      active: true,
      success_url: dto.success_url ?? null,
      cancel_url: dto.cancel_url ?? null,
      metadata: dto.metadata ?? {},
      created_at: now,
      updated_at: now,
    };
    const link = await this.repository.transaction(async (manager) => {
      const inserted = await this.repository.insert(record, manager);
      await this.audit.record(manager, {
        applicationId: inserted.application_id,
        action: 'payment_link.created',
        target: { type: 'payment_link', id: inserted.id },
        metadata: { target_type: inserted.target_type, target_id: inserted.target_id },
      });
      return inserted;
    });
    return this.toResponse(scope, link);
  }

  async retrieve(scope: Scope, id: string): Promise<PaymentLinkResponse> {
    return this.toResponse(scope, await this.get(scope, id));
  }

  list(scope: Scope, query: ListQuery): Promise<ListEnvelope<PaymentLinkResponse>> {
    const qb = this.repository.listQuery('pl', scope.application.id);
    return runList(qb, PAYMENT_LINK_LIST, query, (l) => this.toResponse(scope, l));
  }

  async deactivate(scope: Scope, id: string): Promise<PaymentLinkResponse> {
    const link = await this.get(scope, id);
    const changes = { active: false, updated_at: this.clock.now() };
    await this.repository.transaction(async (manager) => {
      await this.repository.update(scope.application.id, id, changes, manager);
      await this.audit.record(manager, {
        applicationId: scope.application.id,
        action: 'payment_link.deactivated',
        target: { type: 'payment_link', id },
        before: { active: link.active },
        after: { active: false },
      });
    });
    return this.toResponse(scope, Object.assign(link, changes));
  }

  /** A visit to the link's page: a new checkout on its target (country and mode bound by the caller). */
  async openCheckout(scope: Scope, id: string): Promise<CheckoutResponse> {
    const link = await this.get(scope, id);
    if (!link.active) throw new AppError(CheckoutErrors.E7020, `Payment link "${id}" is deactivated.`);
    return this.checkouts.create(
      scope,
      {
        target_type: link.target_type,
        target_id: link.target_id,
        success_url: link.success_url ?? undefined,
        cancel_url: link.cancel_url ?? undefined,
        metadata: link.metadata,
      },
      link,
    );
  }

  /** The link in this mode, or null (the hosted page looks in both modes). */
  find(scope: Scope, id: string): Promise<PaymentLink | null> {
    return this.repository.findById(scope.application.id, id);
  }

  private async get(scope: Scope, id: string): Promise<PaymentLink> {
    const link = await this.find(scope, id);
    if (!link) throw new AppError(Errors.E4004, `No payment link with id "${id}".`);
    return link;
  }

  private toResponse(scope: Scope, link: PaymentLink): PaymentLinkResponse {
    return toPaymentLinkResponse(link, this.urls.paymentLink(scope.application.slug, link.id));
  }
}
