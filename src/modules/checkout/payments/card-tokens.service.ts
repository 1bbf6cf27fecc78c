import { createHash } from 'node:crypto';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { luhn } from '../../../common/http/card-data.js';
import { newId } from '../../../common/ids.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { VaultCardDto } from '../dto/checkout.dto.js';
import type { CardTokenDto } from '../dto/responses.dto.js';
import type { CardToken } from '../entities/card-token.entity.js';
import { CardTokensRepository } from './card-tokens.repository.js';
import type { VaultCard } from '../../../providers/ports/collection.port.js';
import { sandboxOutcomeOf } from './providers/sandbox-collection.provider.js';

/** How long a vault token can be used: long enough to pay, short enough that a leaked one is worthless. */
export const CARD_TOKEN_LIFETIME_MS = 15 * 60 * 1000;

const BRANDS: Array<[RegExp, string]> = [
  [/^4/, 'visa'],
  [/^(5[1-5]|2[2-7])/, 'mastercard'],
  [/^3[47]/, 'amex'],
  [/^35/, 'jcb'],
  [/^(62|81)/, 'unionpay'],
  [/^(6011|65|64[4-9])/, 'discover'],
  [/^3(0[0-5]|[68])/, 'diners'],
];

/** Brand, last4 and fingerprint of a card number: what may be kept of it. */
export function describeCardNumber(number: string, applicationId: string) {
  return {
    brand: BRANDS.find(([pattern]) => pattern.test(number))?.[1] ?? 'unknown',
    last4: number.slice(-4),
    // Same card, same application: same fingerprint; never reversible to the number.
    fingerprint: createHash('sha256').update(`${applicationId}:${number}`).digest('base64url').slice(0, 16),
  };
}

const TOKEN = /^tok_([0-9a-f]{32})$/;

/** `tok_` and the record's id without dashes. */
export const tokenIdOf = (id: string) => `tok_${id.replaceAll('-', '')}`;

function recordIdOf(token: string): string | null {
  const hex = TOKEN.exec(token)?.[1];
  if (!hex) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The test-mode card vault (docs/COLLECTION.md, "Card tokenization"), the sandbox's stand-in for
 * vault.omise.co / Stripe.js: it takes the card the hosted page's form read, checks it (format,
 * Luhn, expiry on the service clock, CVC) and keeps only what a charge needs: brand, last4, expiry,
 * a fingerprint (a hash of application and number) and the sandbox outcome the number selects. The
 * number and the CVC are dropped here; the answer is a single-use `tok_…`, expiring after 15
 * minutes, bound to the mode and to the checkout whose session asked. Live mode has no vault.
 */
@Injectable()
export class CardTokensService {
  constructor(
    private readonly repository: CardTokensRepository,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {}

  async create(principal: Principal, card: VaultCardDto): Promise<CardTokenDto> {
    if (principal.mode !== 'test') {
      throw new AppError(
        Errors.E4040,
        "The card vault serves test mode only: in live mode the card goes to the provider's own script (Omise.js, Stripe Payment Element).",
      );
    }
    const checkoutId = principal.credential.session?.targetId;
    if (!checkoutId) throw new AppError(Errors.E1300, 'Card tokens are made with a checkout session.');
    const parsed = parseCard(card, this.clock.now());
    const applicationId = principal.application.id;
    const now = this.clock.now();
    const row = {
      id: newId(),
      application_id: applicationId,
      checkout_id: checkoutId,
      ...describeCardNumber(parsed.number, applicationId),
      exp_month: parsed.exp_month,
      exp_year: parsed.exp_year,
      card_holder_name: parsed.name,
      sandbox_outcome: sandboxOutcomeOf(parsed.number),
      created_at: now,
      expires_at: new Date(now.getTime() + CARD_TOKEN_LIFETIME_MS),
      used_at: null,
    };
    const record = await this.repository.transaction(async (manager) => {
      const inserted = await this.repository.insert(row, manager);
      // The card itself never: the token, its checkout and the brand.
      await this.audit.record(manager, {
        applicationId,
        action: 'token.created',
        target: { type: 'token', id: tokenIdOf(inserted.id) },
        metadata: { checkout_id: checkoutId, brand: inserted.brand },
      });
      return inserted;
    });
    return toCardTokenResponse(record);
  }

  /**
   * Uses the token for a payment of `checkoutId` (in the payment's transaction, the checkout row
   * locked): E7021 unless it is this checkout's, unused and unexpired. Once used it never pays again,
   * whatever the outcome (a declined card is tokenized again).
   */
  async consume(applicationId: string, checkoutId: string, token: string, manager: EntityManager): Promise<VaultCard> {
    const id = recordIdOf(token);
    const record = id ? await this.repository.findById(applicationId, id, manager, true) : null;
    const now = this.clock.now();
    if (!record || record.checkout_id !== checkoutId) {
      throw new AppError(CheckoutErrors.E7021, 'No card token of this checkout has this id.');
    }
    if (record.used_at) throw new AppError(CheckoutErrors.E7021, 'This card token was already used.');
    if (record.expires_at <= now) throw new AppError(CheckoutErrors.E7021, 'This card token has expired.');
    await this.repository.update(applicationId, record.id, { used_at: now }, manager);
    return toVaultCard(record);
  }

  /**
   * The card of a token already used on `checkoutId`: a resumed confirm (docs/IDEMPOTENCY.md) sends
   * its recorded charge to the provider again, under the same charge id, with the card it consumed.
   */
  async usedOn(applicationId: string, checkoutId: string, token: string): Promise<VaultCard | null> {
    const id = recordIdOf(token);
    const record = id ? await this.repository.findById(applicationId, id) : null;
    return record && record.checkout_id === checkoutId && record.used_at ? toVaultCard(record) : null;
  }
}

function toVaultCard(record: CardToken): VaultCard {
  return {
    brand: record.brand,
    last4: record.last4,
    exp_month: record.exp_month,
    exp_year: record.exp_year,
    fingerprint: record.fingerprint,
    name: record.card_holder_name,
    sandbox_outcome: record.sandbox_outcome as VaultCard['sandbox_outcome'],
  };
}

function toCardTokenResponse(record: CardToken): CardTokenDto {
  return {
    id: tokenIdOf(record.id),
    object: 'token',
    type: 'card',
    livemode: record.livemode,
    used: record.used_at !== null,
    card: {
      brand: record.brand,
      last4: record.last4,
      exp_month: record.exp_month,
      exp_year: record.exp_year,
      fingerprint: record.fingerprint,
      name: record.card_holder_name as string,
    },
    created_at: record.created_at.toISOString(),
    expires_at: record.expires_at.toISOString(),
  };
}

/** Card input checks: format, Luhn, expiry on the service clock, CVC (declines are the provider's). */
function parseCard(card: VaultCardDto, now: Date) {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
    throw new AppError(CheckoutErrors.E7008, 'card.number is not a valid card number.');
  }
  if (!Number.isInteger(card.exp_month) || card.exp_month < 1 || card.exp_month > 12) {
    throw new AppError(CheckoutErrors.E7008, 'card.exp_month must be 1 to 12.');
  }
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  if (year < 2000 || year > 2100) throw new AppError(CheckoutErrors.E7008, 'card.exp_year is not a valid year.');
  if (Date.UTC(year, card.exp_month, 1) <= now.getTime()) {
    throw new AppError(CheckoutErrors.E7008, 'The card has expired (card.exp_month, card.exp_year).');
  }
  if (!/^\d{3,4}$/.test(card.cvc)) throw new AppError(CheckoutErrors.E7008, 'card.cvc must be 3 or 4 digits.');
  return { number, exp_month: card.exp_month, exp_year: year, name: card.name ?? null };
}
