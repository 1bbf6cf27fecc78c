import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { OAUTH_ERROR_CODES } from '../auth.errors.js';

export class OAuthErrorDto {
  @ApiProperty({ enum: [...Object.keys(OAUTH_ERROR_CODES), 'server_error'], description: 'RFC 6749 §5.2 error.' })
  error: string;
  @ApiProperty() error_description: string;
  @ApiProperty({ example: 'error' }) object: string;
  @ApiProperty({ example: 'E1222', description: 'The catalog code of the RFC 6749 error.' }) code: string;
  @ApiProperty({ example: 'oauth_invalid_grant' }) key: string;
  @ApiProperty({ example: 'errors.auth.oauth_invalid_grant' }) i18n_key: string;
  @ApiProperty() message: string;
  @ApiProperty() request_id: string;
}

/**
 * The token endpoints answer RFC 6749 errors with the service's error object alongside. Like
 * @ApiErrors, the documentation is generated from the catalog entries (OAUTH_ERROR_CODES).
 */
export function ApiOAuthErrors() {
  const entries = Object.entries(OAUTH_ERROR_CODES);
  const examples = Object.fromEntries(
    entries.map(([error, d]) => [
      d.code,
      {
        value: {
          error,
          error_description: d.message,
          object: 'error',
          code: d.code,
          key: d.key,
          i18n_key: d.i18n_key,
          message: d.message,
          request_id: 'req_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b',
        },
      },
    ]),
  );
  const content = { 'application/json': { schema: { $ref: getSchemaPath(OAuthErrorDto) }, examples } };
  const list = entries.map(([error, d]) => `\`${error}\` ${d.code} ${d.key}`).join('\n\n');
  return applyDecorators(
    ApiExtraModels(OAuthErrorDto),
    ApiResponse({
      status: 400,
      description: `RFC 6749 §5.2 error, with the error object alongside:\n\n${list}`,
      content,
    }),
    ApiResponse({
      status: 401,
      description:
        '`invalid_client` (E1221) when the client authenticated with HTTP Basic; carries `WWW-Authenticate: Basic`.',
      content,
    }),
  );
}
