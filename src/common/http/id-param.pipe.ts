import { Injectable, type PipeTransform } from '@nestjs/common';
import type { AppError } from '../errors/app-error.js';
import { isUuid } from '../ids.js';

/**
 * Resource ids are UUIDs: a path id that is not one is answered at the edge with the resource's own
 * not-found error (the same one a well-formed unknown id gets), so services and repositories only
 * ever see well-formed ids. `@Param('id', new IdParam(customerNotFound))`.
 */
@Injectable()
export class IdParam implements PipeTransform<string, string> {
  constructor(private readonly notFound: (id: string) => AppError) {}

  transform(value: string): string {
    if (!isUuid(value)) throw this.notFound(value);
    return value;
  }
}
