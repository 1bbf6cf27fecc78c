import type { RestrictedPermissions, Role } from '../auth/permissions.js';

export type Mode = 'test' | 'live';

/** Who may call an endpoint: `machine` (secret key), `user`/`superuser` (bearer), `none` (one-time session). */
export type Privilege = 'machine' | 'user' | 'superuser' | 'none';

export type AuthMethod = 'secret_key' | 'bearer' | 'session';

/** What a Passport strategy proves about the caller's credential, before it is bound to a request. */
export interface Credential {
  /** The application the credential belongs to; null for a superuser, who reaches every application. */
  applicationId: string | null;
  /** The mode the credential is bound to; null when it has none (bearer tokens). */
  mode: Mode | null;
  privilege: Privilege;
  method: AuthMethod;
  /** Key id, user id or session id. */
  subject: string;
  /** For a restricted key (`rk_…`): its level per resource group, checked against permissions.ts on every route. */
  permissions?: RestrictedPermissions;
  /** For a bearer token of a member: the member's role in the application, checked against permissions.ts. */
  role?: Role;
  /** For one-time sessions: what the session may be used for. */
  session?: { purpose: string; targetId: string };
}

export interface ApplicationRef {
  id: string;
  slug: string;
  name: string;
  countries: string[];
}

/**
 * The one identity object of a wallet request: the proven credential bound to the application
 * (`{app}`), the mode (the schema the request reads and writes) and the country it acts in.
 * Written once by the auth guard into the request context; controllers take it with
 * `@CurrentPrincipal()` and pass it to services, which read the application and country from it.
 */
export interface Principal {
  credential: Credential;
  application: ApplicationRef;
  mode: Mode;
  livemode: boolean;
  /** X-Country when the application is enabled for it; required where the endpoint says so. */
  country: string | undefined;
}

/** The request's country where the endpoint requires X-Country (the tenancy guard refused the request without it). */
export function countryOf(principal: Pick<Principal, 'country'>): string {
  if (!principal.country) throw new Error('the request has no country: the endpoint must require X-Country');
  return principal.country;
}

/**
 * What a service reads of its caller: the application, the mode and the country. Every Principal is
 * one; work that has no credential (a hosted page's visit, a job) builds one with `scopeOf`.
 */
export type Scope = Pick<Principal, 'application' | 'mode' | 'livemode' | 'country'>;

export function scopeOf(application: ApplicationRef, mode: Mode, country?: string): Scope {
  return { application, mode, livemode: mode === 'live', country };
}
