import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { FILE_PURPOSES, type FilePurpose } from '../file-purposes.js';

/** The multipart/form-data body of POST /files (the `file` part is read by FileUploadInterceptor). */
export class CreateFileDto {
  @ApiProperty({ enum: FILE_PURPOSES, example: 'dispute_evidence' })
  @IsIn(FILE_PURPOSES)
  purpose: FilePurpose;
}

/** The documented shape of the multipart body (Swagger's "Try it out" sends a file picker for `file`). */
export class UploadFileBodyDto extends CreateFileDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'A PDF, JPEG or PNG of at most 10 MB.' })
  file: unknown;
}
