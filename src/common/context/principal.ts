export type Mode = 'test' | 'live';

/** Who may call an endpoint: `machine` (secret key), `user`/`superuser` (bearer), `none` (one-time session). */
export type Privilege = 'machine' | 'user' | 'superuser' | 'none';

export type AuthMethod = 'secret_key' | 'bearer' | 'session';

export interface Principal {
  /** The application the credential belongs to; null for a superuser, who reaches every application. */
  applicationId: string | null;
  /** The mode the credential is bound to; null when it has none (bearer tokens). */
  mode: Mode | null;
  privilege: Privilege;
  method: AuthMethod;
  /** Key id, user id or session id. */
  subject: string;
  /** For one-time sessions: what the session may be used for. */
  session?: { purpose: string; targetId: string };
}

export interface ApplicationRef {
  id: string;
  slug: string;
  name: string;
  countries: string[];
}
