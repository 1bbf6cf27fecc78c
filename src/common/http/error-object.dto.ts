import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ErrorObjectDto {
  @ApiProperty({ example: 'error' })
  object: string;

  @ApiProperty({ example: 'E2000' })
  code: string;

  @ApiProperty({ example: 'invalid_request' })
  key: string;

  @ApiProperty({ example: 'errors.request.invalid_request' })
  i18n_key: string;

  @ApiProperty({ example: '"amount" is required.' })
  message: string;

  @ApiPropertyOptional({
    example: 'amount',
    description:
      'The one request parameter at fault, when there is one: a body field (`amount`), nested Stripe style ' +
      '(`line_items[0].price`, `extra_fields.bankCode`), a query parameter (`limit`) or a header (`X-Country`). ' +
      'Absent when no single parameter is at fault.',
  })
  param?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    example: { permission: 'charges:write' },
    description:
      'Named values the message speaks of, when the code has any: the permission a restricted key lacks ' +
      '(`permission`, E1240), the roles that may make the request (`allowed_roles`, E1241, E1244).',
  })
  params?: Record<string, string | string[]>;

  @ApiProperty({
    example: 'http://localhost:3000/errors/E2000',
    description: 'The public page of the code in the error catalog: `GET {PUBLIC_URL}/errors/{code}`, no credential.',
  })
  doc_url: string;

  @ApiProperty({ example: 'req_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b' })
  request_id: string;
}
