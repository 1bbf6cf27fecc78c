import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { TestModeOnly } from '../../common/http/test-mode-only.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { DisputeErrors } from './disputes.errors.js';
import { DISPUTE_LIST, DisputesService } from './disputes.service.js';
import { DisputeDto } from './dto/dispute.dto.js';
import { OpenDisputeDto } from './dto/open-dispute.dto.js';
import { UpdateDisputeDto } from './dto/update-dispute.dto.js';

const DISPUTE_ID = new IdParam((id) => new AppError(Errors.E4004, `No dispute with id "${id}" in this country.`));
const DECIDED =
  "Closes the dispute: the ledger posting, `settled: true`, the charge's `dispute_status` and `charge.dispute.closed` in one transaction.";

@WalletController('disputes')
export class DisputesController {
  constructor(private readonly disputes: DisputesService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List the disputes of the application country (X-Country)' })
  @ApiListQuery(DISPUTE_LIST)
  @ApiListResponse(DisputeDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(DISPUTE_LIST) query: ListQuery) {
    return this.disputes.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a dispute of the application country' })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', DISPUTE_ID) id: string) {
    return this.disputes.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Save or submit evidence for a dispute',
    description:
      'Sets evidence fields (text, and file references as file ids) and metadata; fields left out keep their saved value. ' +
      '`submit: true` submits the evidence: `needs_response` -> `under_review` (an inquiry stays `warning_needs_response`), after which the evidence can no longer change (E9505). ' +
      'Refused after `evidence_due_by` (E9503) and on a closed dispute (E9504). Records `charge.dispute.updated` when anything changed.',
  })
  @ApiBody({
    type: UpdateDisputeDto,
    examples: {
      save: {
        summary: 'Save evidence without submitting it',
        value: {
          evidence: {
            product_description: 'One year of the Premium plan, delivered electronically.',
            customer_name: 'Somchai Jaidee',
            customer_email_address: 'somchai@example.com',
            receipt: 'file_7K3M9Q2R',
          },
          submit: false,
        },
      },
      submit: {
        summary: 'Add a last field and submit',
        value: { evidence: { uncategorized_text: 'The customer used the service after the charge.' }, submit: true },
      },
    },
  })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E2000, Errors.E4004, DisputeErrors.E9503, DisputeErrors.E9504, DisputeErrors.E9505)
  update(@CurrentPrincipal() principal: Principal, @Param('id', DISPUTE_ID) id: string, @Body() dto: UpdateDisputeDto) {
    return this.disputes.update(principal, id, dto);
  }

  @Post(':id/close')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Accept (close) a dispute',
    description:
      'The merchant accepts the dispute instead of answering it: `needs_response` -> `lost` (the disputed amount stays withdrawn and the dispute fee is booked), ' +
      'an inquiry `warning_needs_response` -> `warning_closed` (no money moves). ' +
      DECIDED +
      ' Refused under review (E9505) and when already closed (E9504).' +
      ' A dispute from Opn or Stripe (`provider`) is accepted at the provider first (Stripe close, Opn accept):' +
      ' a refusal there is E9510 and nothing changes; no answer is E5002 and closing again repeats the same request.',
  })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E4004, DisputeErrors.E9504, DisputeErrors.E9505, DisputeErrors.E9510, Errors.E5002)
  close(@CurrentPrincipal() principal: Principal, @Param('id', DISPUTE_ID) id: string) {
    return this.disputes.close(principal, id);
  }
}

@WalletController('test_helpers/disputes', { tag: 'test helpers' })
@TestModeOnly()
export class DisputeTestHelpersController {
  constructor(private readonly disputes: DisputesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: open a dispute on a paid charge, as a provider would',
    description:
      'A chargeback (`needs_response`) withdraws the amount (default: what is left of the charge after refunds) to the `disputes` balance; ' +
      '`inquiry: true` opens a `warning_needs_response` inquiry that moves no money. A charge has at most one dispute (E9501).',
  })
  @ApiBody({
    type: OpenDisputeDto,
    examples: {
      chargeback: { value: { charge_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', reason: 'fraudulent' } },
      partial: { value: { charge_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', reason: 'duplicate', amount: 5000 } },
      inquiry: { value: { charge_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', reason: 'general', inquiry: true } },
    },
  })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E2000, Errors.E4004, Errors.E4040, DisputeErrors.E9501, DisputeErrors.E9502, DisputeErrors.E9506)
  open(@CurrentPrincipal() principal: Principal, @Body() dto: OpenDisputeDto) {
    return this.disputes.openForTest(principal, dto);
  }

  @Post(':id/win')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: the provider decides the dispute for the merchant',
    description:
      "`needs_response` or `under_review` -> `won`: the disputed amount returns to the charge's balance (`reinstated: true`); an inquiry -> `warning_closed`. " +
      DECIDED,
  })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E4004, Errors.E4040, DisputeErrors.E9504)
  win(@CurrentPrincipal() principal: Principal, @Param('id', DISPUTE_ID) id: string) {
    return this.disputes.decide(principal, id, 'win');
  }

  @Post(':id/lose')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: the provider decides the dispute for the cardholder',
    description:
      '`needs_response` or `under_review` -> `lost`: the disputed amount goes back to the cardholder (`disputes` -> `provider_clearing`) and the dispute fee is booked (charge balance -> `fees`). ' +
      'An inquiry cannot be lost (E9507). ' +
      DECIDED,
  })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E4004, Errors.E4040, DisputeErrors.E9504, DisputeErrors.E9507)
  lose(@CurrentPrincipal() principal: Principal, @Param('id', DISPUTE_ID) id: string) {
    return this.disputes.decide(principal, id, 'lose');
  }
}
