import { ApiProperty } from '@nestjs/swagger';
import { FILE_PURPOSES, GENERATED_FILE_PURPOSES } from '../file-purposes.js';

/** Stripe's file object. */
export class FileDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'file' }) object: string;
  @ApiProperty({ enum: [...FILE_PURPOSES, ...GENERATED_FILE_PURPOSES], example: 'dispute_evidence' })
  purpose: string;
  @ApiProperty({ example: 'receipt.pdf' }) filename: string;
  @ApiProperty({ example: 48213, description: 'Bytes.' }) size: number;
  @ApiProperty({
    enum: ['pdf', 'jpg', 'png', 'csv'],
    example: 'pdf',
    description: "Read from the content of an upload; `csv` for a report run's result.",
  })
  type: string;
  @ApiProperty({ example: '2026-11-28T13:40:00.000Z' }) created: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: '/api/v1/demo/platform/wallet/files/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b/contents' })
  url: string;
}
