import type { ErrorDefinition } from './error-catalog.js';

/** `Invalid parameter "amount": …` / `Invalid query parameter "limit": …`: the parameter a detail names. */
const NAMED_PARAMETER = /^Invalid (?:query )?parameter "([^"]+)"/;

/**
 * The only error services throw. `detail` replaces the catalog message when the caller needs
 * to know more (e.g. which parameter was wrong); it never carries secrets, SQL or stack traces.
 * `param` names the one request parameter at fault (Stripe's `param`, e.g. `customer_id` or
 * `line_items[0].price`): set it with {@link AppError.on}; a detail worded `Invalid parameter "x": …`
 * names it already.
 */
export class AppError extends Error {
  private explicitParam?: string;
  /** Named values the message speaks of (e.g. `{ permission: 'charges:write' }`), for clients to act on. */
  params?: Record<string, string | string[]>;

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

  /** The parameter at fault: the one given to {@link on}, else the one the detail names, if any. */
  get param(): string | undefined {
    return this.explicitParam ?? (this.detail ? NAMED_PARAMETER.exec(this.detail)?.[1] : undefined);
  }

  /** Names the request parameter at fault: `throw new AppError(E7014, 'No customer …').on('customer_id')`. */
  on(param: string): this {
    this.explicitParam = param;
    return this;
  }

  /** Adds named values to the error object's `params`: `throw new AppError(E1240, …).with({ permission })`. */
  with(params: Record<string, string | string[]>): this {
    this.params = { ...this.params, ...params };
    return this;
  }
}
