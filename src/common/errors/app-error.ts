import type { ErrorDefinition } from './error-catalog.js';

/**
 * The only error services throw. `detail` replaces the catalog message when the caller needs
 * to know more (e.g. which parameter was wrong); it never carries secrets, SQL or stack traces.
 */
export class AppError extends Error {
  constructor(
    readonly definition: ErrorDefinition,
    readonly detail?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? definition.message);
    this.name = `AppError(${definition.code})`;
  }

  get status(): number {
    return this.definition.http_status;
  }
}
