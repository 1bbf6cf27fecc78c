import type { AccountRecord, AccountType } from './entities/account.entity.js';
import type { KybStatus } from '../../providers/ports/connect.port.js';

/** The account as every response (and every other module) sees it. */
export interface Account {
  id: string;
  object: 'account';
  livemode: boolean;
  type: AccountType;
  name: string | null;
  business_name: string | null;
  email: string | null;
  country: string | null;
  default_currency: string | null;
  /** The own account is always `verified`; a connected account starts `pending`. */
  kyb_status: KybStatus;
  kyb_rejection_reason: string | null;
  kyb_decided_at: string | null;
  metadata: Record<string, unknown>;
  labels: string[];
  created_at: string;
  updated_at: string;
}

export function toAccountResponse(a: AccountRecord): Account {
  return {
    id: a.id,
    object: 'account',
    livemode: a.livemode,
    type: a.type,
    name: a.name,
    business_name: a.business_name,
    email: a.email,
    country: a.country,
    default_currency: a.default_currency,
    kyb_status: a.kyb_status,
    kyb_rejection_reason: a.kyb_rejection_reason,
    kyb_decided_at: a.kyb_decided_at ? a.kyb_decided_at.toISOString() : null,
    metadata: a.metadata,
    labels: a.labels,
    created_at: a.created_at.toISOString(),
    updated_at: a.updated_at.toISOString(),
  };
}
