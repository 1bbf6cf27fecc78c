import { Injectable } from '@nestjs/common';
import { CLS_REQ, ClsService, type ClsStore } from 'nestjs-cls';
import type { HeldKey } from '../idempotency/idempotency.repository.js';
import type { ApplicationRef, Credential, Mode, Principal } from './principal.js';

export interface WalletStore extends ClsStore {
  requestId?: string;
  /** The tenancy guard's findings, the auth guard's inputs: `{app}`, X-Test-Mode as sent, X-Country. */
  application?: ApplicationRef;
  requestedMode?: Mode;
  country?: string;
  /** The proven credential (also on routes outside the wallet base path, e.g. /oauth/me). */
  credential?: Credential;
  /** The identity of a wallet request, written once by the auth guard. */
  principal?: Principal;
  /** The schema the work is bound to: the auth guard binds it with the principal, jobs with runInMode. */
  mode?: Mode;
  /** The handler tolerates lag and the read replica is within it: ModeDb reads from the replica. */
  readReplica?: boolean;
  /** The `Idempotency-Key` the request holds while it runs (IdempotencyGuard). */
  idempotency?: HeldKey;
  /** The operator running a CLI command (the audit log's actor outside a request). */
  operator?: string;
}

/**
 * Typed access to the per-request context (AsyncLocalStorage through nestjs-cls).
 * Getters fail loudly when the step that sets a value did not run, instead of guessing.
 */
@Injectable()
export class RequestContext {
  constructor(private readonly cls: ClsService<WalletStore>) {}

  /**
   * The current store, or undefined outside a context. Fields are read and written on it directly:
   * ClsService's get(key)/set(key) split the key as a dotted path (an array and a reduce per call,
   * a dozen calls per request), and no key here has a dot.
   */
  private get store(): WalletStore | undefined {
    return this.cls.get();
  }

  get active(): boolean {
    return this.cls.isActive();
  }

  get requestId(): string | undefined {
    return this.store?.requestId;
  }

  /** The Idempotency-Key header of the current request, if it had one. */
  get idempotencyKey(): string | null {
    const store = this.store;
    if (!store) return null;
    const req = store[CLS_REQ] as { headers?: Record<string, string | string[] | undefined> } | undefined;
    const key = req?.headers?.['idempotency-key'];
    return typeof key === 'string' && key !== '' ? key : null;
  }

  /** The client address of the current request (Express `req.ip`: X-Forwarded-For only through TRUSTED_PROXIES). */
  get clientAddress(): string | null {
    return this.request?.ip ?? null;
  }

  /** The User-Agent of the current request, cut to 512 characters. */
  get userAgent(): string | null {
    const agent = this.request?.headers?.['user-agent'];
    return typeof agent === 'string' && agent !== '' ? agent.slice(0, 512) : null;
  }

  private get request(): { ip?: string; headers?: Record<string, string | string[] | undefined> } | undefined {
    return this.store?.[CLS_REQ] as
      { ip?: string; headers?: Record<string, string | string[] | undefined> } | undefined;
  }

  get operator(): string | undefined {
    return this.store?.operator;
  }

  get heldKey(): HeldKey | undefined {
    return this.store?.idempotency;
  }

  get application(): ApplicationRef {
    return this.required('application');
  }

  get optionalApplication(): ApplicationRef | undefined {
    return this.store?.application;
  }

  get principal(): Principal {
    return this.required('principal');
  }

  get optionalPrincipal(): Principal | undefined {
    return this.store?.principal;
  }

  get credential(): Credential {
    return this.required('credential');
  }

  get mode(): Mode {
    return this.required('mode');
  }

  get livemode(): boolean {
    return this.mode === 'live';
  }

  /** The bound mode's livemode, or undefined outside a request or job that bound one. */
  get optionalLivemode(): boolean | undefined {
    const mode = this.store?.mode;
    return mode === undefined ? undefined : mode === 'live';
  }

  /** Whether this request's per-mode reads go to the read replica (ReadReplicaTolerant, lag within bounds). */
  get readReplica(): boolean {
    return this.store?.readReplica === true;
  }

  get country(): string {
    return this.required('country');
  }

  get optionalCountry(): string | undefined {
    return this.store?.country;
  }

  get requestedMode(): Mode | undefined {
    return this.store?.requestedMode;
  }

  set<K extends keyof WalletStore>(key: K, value: WalletStore[K]): void {
    const store = this.store;
    // No context: ClsService.set throws its own explanation.
    if (!store) return this.cls.set(key, value);
    store[key] = value;
  }

  /** Runs `fn` with its own context bound to `mode`: for jobs, the CLI and tests outside a request. */
  runInMode<T>(mode: Mode, fn: () => Promise<T>, extra: Partial<WalletStore> = {}): Promise<T> {
    return this.cls.run(async () => {
      this.cls.set('mode', mode);
      for (const [k, v] of Object.entries(extra)) this.cls.set(k as keyof WalletStore, v as never);
      return fn();
    });
  }

  private required<K extends keyof WalletStore>(key: K): NonNullable<WalletStore[K]> {
    const value = this.store?.[key];
    if (value === undefined || value === null) {
      throw new Error(`request context has no ${String(key)}: the step that sets it did not run`);
    }
    return value as NonNullable<WalletStore[K]>;
  }
}
