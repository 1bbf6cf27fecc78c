import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error.js';
import { Errors, findError } from '../../common/errors/error-catalog.js';
import { ERROR_DOCS_PATH } from '../../common/errors/error-docs.js';
import { ApiErrors, Public } from '../../common/http/decorators.js';

class ErrorDocDto {
  @ApiProperty({ example: 'error_code' }) object: string;
  @ApiProperty({ example: 'E2000' }) code: string;
  @ApiProperty({ example: 'invalid_request' }) key: string;
  @ApiProperty({ example: 'errors.request.invalid_request' }) i18n_key: string;
  @ApiProperty({ example: 'The request is invalid.' }) message: string;
  @ApiProperty({ example: 400 }) http_status: number;
  @ApiProperty({ example: 'warning', enum: ['info', 'warning', 'error', 'critical'] }) severity: string;
  @ApiProperty({
    example:
      'Every error object has `param` when one request parameter is at fault (e.g. `amount`, `line_items[0].price`) and `doc_url`, this page.',
  })
  fields: string;
}

const FIELDS =
  'Every error object is `{object: "error", code, key, i18n_key, message, param?, doc_url, request_id}`: ' +
  '`message` says what is wrong (a missing field: `"amount" is required.`), `param` names the one request ' +
  'parameter at fault when there is one (a body field, nested Stripe style such as `line_items[0].price`, a ' +
  'query parameter or a header), `doc_url` is this page.';

/**
 * The public page of one error code: where every error object's `doc_url` points. Outside the
 * wallet base path and without credentials, so a link from an error opens in any browser.
 */
@Controller(ERROR_DOCS_PATH)
@ApiTags('errors')
@Public()
export class ErrorDocsController {
  @Get(':code')
  @ApiOperation({
    summary: 'Describe one error code',
    description:
      'The catalog entry of one code (`E2000`), the page every error object links as `doc_url`. No credentials.',
  })
  @ApiParam({ name: 'code', example: 'E2000', description: 'The code, `E` and four digits.' })
  @ApiOkResponse({ type: ErrorDocDto, description: 'The catalog entry of the code.' })
  @ApiErrors(Errors.E4004)
  describe(@Param('code') code: string): ErrorDocDto {
    const entry = /^E\d{4}$/i.test(code) ? findError(code.toUpperCase()) : undefined;
    if (!entry) throw new AppError(Errors.E4004, `No error code "${code.slice(0, 16)}".`).on('code');
    return {
      object: 'error_code',
      code: entry.code,
      key: entry.key,
      i18n_key: entry.i18n_key,
      message: entry.message,
      http_status: entry.http_status,
      severity: entry.severity,
      fields: FIELDS,
    };
  }
}
