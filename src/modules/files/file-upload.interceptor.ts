import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Observable } from 'rxjs';
import { AppError } from '../../common/errors/app-error.js';
import { MAX_FILE_BYTES } from './file-purposes.js';
import { FileErrors } from './files.errors.js';

/** The uploaded part as multer (memory storage) hands it over. */
export interface UploadedPart {
  originalname: string;
  buffer: Buffer;
  size: number;
}

// Memory storage (no `dest`): the bytes go to the storage port, never to a local disk.
const Multer = FileInterceptor('file', {
  limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 1, parts: 2, fieldSize: 100, fieldNameSize: 20 },
});

/**
 * Reads the multipart body of POST /files (after the auth guard, so no anonymous upload is parsed)
 * with multer's limits, and turns its refusals into the catalog's codes: over 10 MB is E5301,
 * anything else wrong with the form is E5304. Only this route parses multipart at all.
 */
@Injectable()
export class FileUploadInterceptor implements NestInterceptor {
  private readonly multer = new Multer();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    try {
      return await this.multer.intercept(context, next);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof PayloadTooLargeException) throw new AppError(FileErrors.E5301);
      throw new AppError(FileErrors.E5304, `The multipart/form-data body was refused: ${reason(error)}.`);
    }
  }
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '').slice(0, 200);
}
