import type { ApplicationRef } from '../context/principal.js';

/** Implemented by the applications module; the tenancy guard only knows this port. */
export abstract class ApplicationResolver {
  abstract bySlug(slug: string): Promise<ApplicationRef | null>;
}
