import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { catalogEntries } from '../../common/errors/error-catalog.js';
import { Auth, WalletController } from '../../common/http/decorators.js';

class CatalogEntryDto {
  @ApiProperty({ example: 1211 }) code: number;
  @ApiProperty({ example: 'invalid_secret_key' }) key: string;
  @ApiProperty({ example: 'errors.auth.invalid_secret_key' }) i18n_key: string;
  @ApiProperty({ example: 'The secret key is invalid or inactive.' }) message: string;
  @ApiProperty({ example: 401 }) http_status: number;
  @ApiProperty({ example: 'warning', enum: ['info', 'warning', 'error', 'critical'] }) severity: string;
}

class CatalogDto {
  @ApiProperty({ example: 'error_catalog' }) object: string;
  @ApiProperty({ example: 42 }) count: number;
  @ApiProperty({ type: [CatalogEntryDto] }) entries: CatalogEntryDto[];
}

@WalletController('errors', { country: false })
export class ErrorsController {
  @Get('catalog')
  @Auth('machine', 'user', 'superuser', 'none')
  @ApiOperation({
    summary: 'List the error catalog',
    description:
      'Every code the service can return; `code` is the integer of the code (E1211 is 1211). Every error object also has ' +
      '`param` (the one request parameter at fault, when there is one: `amount`, `line_items[0].price`, `limit`, `X-Country`) ' +
      'and `doc_url` (the public page of its code, `GET /errors/{code}`).',
  })
  @ApiOkResponse({ type: CatalogDto })
  catalog(): CatalogDto {
    const entries = catalogEntries().map((e) => ({
      code: Number(e.code.slice(1)),
      key: e.key,
      i18n_key: e.i18n_key,
      message: e.message,
      http_status: e.http_status,
      severity: e.severity,
    }));
    return { object: 'error_catalog', count: entries.length, entries };
  }
}
