import type { BankAccount } from '../entities/bank-account.entity.js';
import { thaiBank } from '../../../providers/ports/thai-banks.js';
import { mask } from './bank-account-destination.js';

export function toBankAccountResponse(b: BankAccount) {
  return {
    id: b.id,
    object: 'bank_account' as const,
    livemode: b.livemode,
    account: b.account_id,
    account_kind: b.account_kind,
    type: b.type,
    country: b.country,
    currency: b.currency,
    account_holder_name: b.account_holder_name,
    bank_code: b.bank_code,
    bank_name: b.bank_code ? (thaiBank(b.bank_code)?.name ?? null) : null,
    branch_code: b.branch_code,
    account_type: b.account_type,
    account_number: mask(b.account_number),
    phone_number: mask(b.phone_number),
    primary_identify_id: mask(b.primary_identify_id),
    last4: b.last4,
    provider: b.provider,
    provider_type: b.provider_type,
    provider_status: b.provider_status,
    recipient_reference: b.recipient_reference,
    routing_number: b.routing_number,
    intent: b.intent_id,
    metadata: b.metadata,
    labels: b.labels,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}

export type BankAccountResponse = ReturnType<typeof toBankAccountResponse>;

export interface BankAccountCreation {
  id: string;
  object: 'bank_account';
  resource: string;
  created_at: string;
  errors: Array<{ code: string; message: string }>;
  next_action: never[];
}
