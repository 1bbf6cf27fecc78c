import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Errors } from '../../../common/errors/error-catalog.js';
import type { Principal } from '../../../common/context/principal.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { ChargeDto } from '../dto/charge.dto.js';
import { CHARGE_LIST, ChargesService } from './charges.service.js';

@WalletController('charges')
export class ChargesController {
  constructor(private readonly charges: ChargesService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List charges' })
  @ApiListQuery(CHARGE_LIST)
  @ApiListResponse(ChargeDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(CHARGE_LIST) query: ListQuery) {
    return this.charges.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a charge' })
  @ApiOkResponse({ type: ChargeDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('charge')) id: string) {
    return this.charges.retrieve(principal, id);
  }
}
