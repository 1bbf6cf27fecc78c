import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
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

/** `@Param('id', IdOf('checkout'))`: a malformed id is E4004 `No checkout with id "…".`, as an unknown one is. */
export function IdOf(resource: string): IdParam {
  return new IdParam((id) => new AppError(Errors.E4004, `No ${resource} with id "${id}".`));
}
