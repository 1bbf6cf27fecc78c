import { Body, Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, Public, WalletController } from '../../../common/http/decorators.js';
import { EXAMPLE_ID } from '../../../common/http/examples.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { BalanceStatementDto, CreateBalanceStatementDto, StatementKeySetDto } from './dto/statement.dto.js';
import { StatementKeys } from './statement-keys.js';
import { StatementErrors } from './statements.errors.js';
import { StatementsService } from './statements.service.js';

@WalletController('balances')
export class BalanceStatementsController {
  constructor(private readonly statements: StatementsService) {}

  @Post(':id/statements')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Sign a balance statement',
    description:
      'The balance at `as_of` (available, pending, total) and the head of its hash chain then (the last entry ' +
      'and its hash, the count of entries), signed with the service’s Ed25519 key as a compact JWS and kept. ' +
      'Anyone holding the published keys (/.well-known/wallet-statement-keys) can check it offline; with the ' +
      'entries (GET /balance_transactions) they can also check the ledger was not changed since ' +
      '(`npm run cli -- statements:verify`, docs/LEDGER.md "Statements").',
  })
  @ApiOkResponse({ type: BalanceStatementDto })
  @ApiErrors(Errors.E2000, Errors.E4004, StatementErrors.E7940)
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('balance')) id: string,
    @Body() dto: CreateBalanceStatementDto,
  ) {
    return this.statements.create(principal, id, dto.as_of);
  }

  @Get(':id/statements/:statement_id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Retrieve a balance statement',
    description: 'A statement signed earlier, with the same JWS: its verification does not change with time.',
  })
  @ApiParam({ name: 'statement_id', description: 'The statement id.', example: EXAMPLE_ID })
  @ApiOkResponse({ type: BalanceStatementDto })
  @ApiErrors(Errors.E4004)
  retrieve(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('statement_id') statementId: string,
  ) {
    return this.statements.retrieve(principal, id, statementId);
  }
}

/** The public keys of balance statements, for verifiers: no credential, cacheable. */
@ApiTags('balances')
@Controller()
export class StatementKeysController {
  constructor(private readonly keys: StatementKeys) {}

  @Get('.well-known/wallet-statement-keys')
  @Public()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'Public keys of balance statements (JWKS)',
    description:
      'Every Ed25519 key that signed or signs statements, the active one first; retired keys stay so old statements still verify.',
  })
  @ApiOkResponse({ type: StatementKeySetDto })
  published() {
    return this.keys.published();
  }
}
