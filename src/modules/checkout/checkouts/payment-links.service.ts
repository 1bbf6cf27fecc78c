import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../../common/list/index.js';
import { CheckoutsService } from './checkouts.service.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { CollectionRepository } from '../checkout.repository.js';
import { toPaymentLinkResponse, type CheckoutResponse, type PaymentLinkResponse } from '../checkout.responses.js';
import type { CreatePaymentLinkDto } from '../dto/checkout.dto.js';
import { PaymentLink } from '../entities/payment-link.entity.js';
import { HostedUrls } from './hosted-urls.js';
import { TargetsService } from '../targets/targets.service.js';

export const PAYMENT_LINK_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    target_type: { type: 'text', values: ['invoice', 'payment_intent'] },
    target_id: { type: 'uuid' },
    active: { type: 'boolean' },
    created_at: { type: 'timestamp' },
  },
  sortable: ['created_at'],
  search: ['id', 'target_id'],
};

@Injectable()
export class PaymentLinksService {
  constructor(
    private readonly repository: CollectionRepository,
    private readonly targets: TargetsService,
    private readonly checkouts: CheckoutsService,
    private readonly urls: HostedUrls,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  /** A link to a payable target (same checks as a checkout); each visit opens a fresh checkout. */
  async create(dto: CreatePaymentLinkDto): Promise<PaymentLinkResponse> {
    const target = await this.targets.load(dto.target_type, dto.target_id);
    this.targets.assertPayable(target, this.context.country);
    const now = this.clock.now();
    const link = await this.repository.insert(PaymentLink, {
      id: newId(),
      application_id: this.context.application.id,
      country: this.context.country,
      target_type: dto.target_type,
      target_id: target.record.id,
      active: true,
      success_url: dto.success_url ?? null,
      cancel_url: dto.cancel_url ?? null,
      metadata: dto.metadata ?? {},
      created_at: now,
      updated_at: now,
    });
    return this.toResponse(link);
  }

  async retrieve(id: string): Promise<PaymentLinkResponse> {
    return this.toResponse(await this.get(id));
  }

  list(query: ListQuery): Promise<ListEnvelope<PaymentLinkResponse>> {
    const qb = this.repository.query(PaymentLink, 'pl', this.context.application.id);
    return runList(qb, PAYMENT_LINK_LIST, query, (l) => this.toResponse(l));
  }

  async deactivate(id: string): Promise<PaymentLinkResponse> {
    const link = await this.get(id);
    const changes = { active: false, updated_at: this.clock.now() };
    await this.repository.update(PaymentLink, this.context.application.id, id, changes);
    return this.toResponse(Object.assign(link, changes));
  }

  /** A visit to the link's page: a new checkout on its target (country and mode bound by the caller). */
  async openCheckout(id: string): Promise<CheckoutResponse> {
    const link = await this.get(id);
    if (!link.active) throw new AppError(CheckoutErrors.E7020, `Payment link "${id}" is deactivated.`);
    return this.checkouts.create(
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
  find(id: string): Promise<PaymentLink | null> {
    return this.repository.find(PaymentLink, this.context.application.id, id);
  }

  private async get(id: string): Promise<PaymentLink> {
    const link = await this.find(id);
    if (!link) throw new AppError(Errors.E4004, `No payment link with id "${id}".`);
    return link;
  }

  private toResponse(link: PaymentLink): PaymentLinkResponse {
    return toPaymentLinkResponse(link, this.urls.paymentLink(this.context.application.slug, link.id));
  }
}
