import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { EXAMPLE_ID } from '../../../common/http/examples.js';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { TestClockErrors } from '../test-clocks/test-clocks.errors.js';
import {
  CancelSubscriptionDto,
  CreateSubscriptionDto,
  PendingItemDto,
  SubscriptionDto,
  UpdateSubscriptionDto,
} from './dto/subscription.dto.js';
import { SubscriptionChangesService } from './subscription-changes.service.js';
import { SubscriptionErrors as E } from './subscriptions.errors.js';
import { PENDING_ITEM_LIST, SUBSCRIPTION_LIST, SubscriptionsService } from './subscriptions.service.js';

@WalletController('subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly changes: SubscriptionChangesService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Create a subscription',
    description:
      'Starts `trialing` with a trial; otherwise `active` for send_invoice and `incomplete` for charge_automatically ' +
      "(until its first invoice is paid, which billing part 2 brings). Periods follow the customer's clock " +
      '(its test clock in test mode).',
  })
  // One whole example: the fields' own examples name options that exclude each other (trial_end and
  // trial_period_days, coupon and promotion_code, days_until_due without send_invoice).
  @ApiBody({
    type: CreateSubscriptionDto,
    examples: {
      trial: {
        summary: 'A monthly plan with a 14-day trial and Thai VAT',
        value: {
          customer_id: EXAMPLE_ID,
          items: [{ price_id: EXAMPLE_ID, quantity: 1 }],
          collection_method: 'charge_automatically',
          trial_period_days: 14,
          default_tax_rates: [EXAMPLE_ID],
          metadata: { plan: 'pro' },
        },
      },
    },
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(
    Errors.E2000,
    E.E7710,
    E.E7711,
    E.E7712,
    E.E7713,
    E.E7714,
    E.E7715,
    E.E7716,
    E.E7717,
    E.E7718,
    E.E7719,
    E.E7720,
    E.E7721,
    E.E7723,
    E.E7727,
    TestClockErrors.E7702,
  )
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateSubscriptionDto) {
    return this.subscriptions.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List subscriptions', description: 'Also filters by `customer`, `status` and `price`.' })
  @ApiListQuery(SUBSCRIPTION_LIST)
  @ApiListResponse(SubscriptionDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(SUBSCRIPTION_LIST) query: ListQuery) {
    return this.subscriptions.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a subscription' })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('subscription')) id: string) {
    return this.subscriptions.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Update a subscription',
    description:
      'Items (add with price_id, change quantity or price by id, remove with deleted), cancel_at_period_end, ' +
      'default_payment_method, metadata. With proration_behavior create_prorations (the default) a change in a paid ' +
      'period stores pending proration items for the next invoice.',
  })
  @ApiBody({
    type: UpdateSubscriptionDto,
    examples: {
      quantity: {
        summary: 'Two seats from now on, prorated',
        value: {
          items: [{ id: EXAMPLE_ID, quantity: 2 }],
          proration_behavior: 'create_prorations',
          metadata: { plan: 'pro' },
        },
      },
    },
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(
    Errors.E2000,
    Errors.E4004,
    E.E7710,
    E.E7711,
    E.E7712,
    E.E7713,
    E.E7714,
    E.E7715,
    E.E7716,
    E.E7722,
    E.E7724,
    E.E7725,
    E.E7727,
    TestClockErrors.E7702,
  )
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('subscription')) id: string,
    @Body() dto: UpdateSubscriptionDto,
  ) {
    return this.changes.update(principal, id, dto);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Cancel a subscription now',
    description:
      '`prorate: true` credits the unused time as pending items; `invoice_now: true` bills them and the usage so far on a final invoice.',
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7722, TestClockErrors.E7702)
  cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('subscription')) id: string,
    @Body() dto: CancelSubscriptionDto,
  ) {
    return this.changes.cancel(principal, id, dto);
  }

  @Get(':id/pending_items')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: "List a subscription's pending items",
    description: 'Prorations waiting for the next invoice (billing part 2 bills them and sets invoice_id).',
  })
  @ApiListQuery(PENDING_ITEM_LIST)
  @ApiListResponse(PendingItemDto)
  @ApiErrors(Errors.E2004, Errors.E4004)
  pendingItems(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('subscription')) id: string,
    @ListQueryParams(PENDING_ITEM_LIST) query: ListQuery,
  ) {
    return this.subscriptions.pendingItems(principal, id, query);
  }
}
