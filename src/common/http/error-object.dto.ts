import { ApiProperty } from '@nestjs/swagger';

export class ErrorObjectDto {
  @ApiProperty({ example: 'error' })
  object: string;

  @ApiProperty({ example: 'E1211' })
  code: string;

  @ApiProperty({ example: 'invalid_secret_key' })
  key: string;

  @ApiProperty({ example: 'errors.auth.invalid_secret_key' })
  i18n_key: string;

  @ApiProperty({ example: 'The secret key is invalid or inactive.' })
  message: string;

  @ApiProperty({ example: 'req_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b' })
  request_id: string;
}
