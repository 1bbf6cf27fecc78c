import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdParam } from '../../../common/http/id-param.pipe.js';
import { BankAccountIntentDto, BankAccountIntentLinkDto } from '../dto/bank-account.dto.js';
import { CreateBankAccountIntentDto } from '../dto/create-bank-account.dto.js';
import { PayoutErrors } from '../payouts.errors.js';
import { BankAccountIntentsService } from './bank-account-intents.service.js';

const P = PayoutErrors;
const intentId = new IdParam((id) => new AppError(Errors.E4004, `No bank account intent with id "${id}".`));

@WalletController('bank_account_intents')
export class BankAccountIntentsController {
  constructor(private readonly intents: BankAccountIntentsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Create a hosted bank-account link',
    description:
      'Answers `session` and `link`. The link opens a page that saves one bookbank account for `account`, then goes to ' +
      '`return_url`; a used or expired link (30 minutes) goes to `refresh_url`.',
  })
  @ApiOkResponse({ type: BankAccountIntentLinkDto })
  @ApiErrors(Errors.E1304, Errors.E2000, P.E6101, P.E6102, P.E6201)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateBankAccountIntentDto) {
    return this.intents.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a bank account intent (never its session or link)' })
  @ApiOkResponse({ type: BankAccountIntentDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', intentId) id: string) {
    return this.intents.retrieve(principal, id);
  }
}
