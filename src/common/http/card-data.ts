import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';

/**
 * Card data never reaches the payment API (docs/COLLECTION.md, "Card tokenization"): the hosted
 * page tokenizes in the browser (the sandbox vault in test mode, the provider's own script in
 * live mode) and sends only the token. A payment API request that carries a card number anyway,
 * in any field of its body or its query, is refused with E2009 before anything (the validation
 * pipe, the idempotency fingerprint, a service) reads it, and the refusal names the field, never
 * the value; the access log never logs bodies and masks PAN-looking digits in the URL
 * (redact-url.ts).
 */

/** The payment API: everything under the wallet base path. */
const PAYMENT_API = /^\/api\/v1\/[^/]+\/platform\/wallet(\/|$)/;

/**
 * The test-mode card vault's paths (`/api/v1/{app}/vault/...`, the only place a card number may be
 * sent): outside the payment API, and never fingerprinted or kept by the idempotency layer.
 */
export const VAULT_PATH = /^\/api\/v1\/[^/]+\/vault(\/|$)/;

/**
 * Runs of 13 to 19 digits, optionally grouped by single spaces or dashes, standing on their own:
 * the shapes a card number is typed in. Not inside a longer run of digits, and not part of a token
 * of letters and digits joined by dashes, such as a UUID: one in about 750 UUIDv7 ids holds a
 * dash-joined digit run of a card's length that passes Luhn (`…-74c4-8272-48641526b9aa`), and
 * refusing those would refuse ordinary requests that name an object.
 */
const DIGIT_RUN = /(?<![A-Za-z0-9]|[A-Za-z0-9]-|\d )\d(?:[ -]?\d){12,18}(?![A-Za-z0-9]|-[A-Za-z0-9]| \d)/g;

/**
 * Card networks' first digits (ISO/IEC 7812 major industry identifiers 2 to 6: Mastercard 2/5,
 * Amex/JCB/Diners 3, Visa 4, Discover/UnionPay 6). Keeps millisecond timestamps (1…) and other
 * long numeric identifiers out of the net.
 */
const CARD_MII = /^[2-6]/;

/** A field name compared case- and separator-blind: `cardNumber`, `card_number`, `card-number`. */
const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Fields that legitimately carry long digit strings and are no card: bank account numbers,
 * national IDs, phone numbers (bank accounts, payouts) and OAuth credentials (their own rules
 * keep them out of logs).
 */
const NOT_CARD_FIELDS = new Set(
  [
    'account_number',
    'primary_identify_id',
    'phone_number',
    'phone',
    'routing_number',
    'password',
    'client_secret',
    'code',
    'code_verifier',
  ].map((name) => normalise(name)),
);

/** Field names that only a card number or its security code has, wherever they appear. */
const CARD_FIELD_NAMES = new Set([
  'cardnumber',
  'ccnumber',
  'creditcardnumber',
  'pan',
  'primaryaccountnumber',
  'cvc',
  'cvv',
  'cvc2',
  'cvv2',
  'cid',
  'securitycode',
  'cardsecuritycode',
  'cardcvc',
  'cardcvv',
]);

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Whether `text` contains a card number: 13–19 digits (grouped or not) of a card network passing Luhn. */
export function containsCardNumber(text: string): boolean {
  if (text.length < 13) return false;
  for (const match of text.matchAll(DIGIT_RUN)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (CARD_MII.test(digits) && luhn(digits)) return true;
  }
  return false;
}

/** `text` with every card number in it replaced by `[redacted card number]` (for logged URLs). */
export function maskCardNumbers(text: string): string {
  if (text.length < 13) return text;
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return CARD_MII.test(digits) && luhn(digits) ? '[redacted card number]' : run;
  });
}

/** The normalised name of a path's last field (`a.b[0]` -> `0`). */
const lastSegment = (path: string) => normalise(path.split(/[.[]/).pop() ?? '');

const childPath = (parent: string, key: string | number) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/**
 * The path of the first field of `value` that carries card data (a card-number-like value, a
 * card-number-like key, or a field named like a card number or CVC, or `number` inside `card`),
 * or undefined. Iterative; the body guard has already bounded the depth.
 */
export function findCardData(value: unknown, prefix = ''): string | undefined {
  // Each entry carries its field's normalised name (an array element's is its index), for NOT_CARD_FIELDS.
  const stack: Array<{ value: unknown; path: string; field: string }> = [
    { value, path: prefix, field: lastSegment(prefix) },
  ];
  while (stack.length > 0) {
    const { value: v, path: at, field } = stack.pop()!;
    if (typeof v === 'string') {
      if (!NOT_CARD_FIELDS.has(field) && containsCardNumber(v)) return at || 'body';
      continue;
    }
    if (typeof v === 'number') {
      if (!NOT_CARD_FIELDS.has(field) && Number.isInteger(v) && containsCardNumber(String(v))) return at || 'body';
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: childPath(at, i), field: String(i) }));
      continue;
    }
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      const path = childPath(at, key);
      const name = normalise(key);
      if (CARD_FIELD_NAMES.has(name) || (name === 'number' && field === 'card')) return path;
      if (containsCardNumber(key)) return at || 'body';
      stack.push({ value: child, path, field: key.includes('.') || key.includes('[') ? lastSegment(key) : name });
    }
  }
  return undefined;
}

/**
 * Mounted after the body parsers and the body guard: a payment API request carrying card data is
 * E2009 (400), naming where, never echoing it.
 */
export function cardDataGuardMiddleware(req: Request, _res: Response, next: NextFunction): void {
  if (!PAYMENT_API.test(req.path)) return next();
  const inQuery = findCardData(req.query);
  const where = inQuery !== undefined ? `query parameter "${inQuery}"` : bodyField(req.body);
  if (where === undefined) return next();
  next(
    new AppError(
      Errors.E2009,
      `The ${where} carries card data. Tokenize the card (POST /api/v1/{app}/vault/tokens in test mode, ` +
        "the provider's script in live mode) and send the token.",
    ),
  );
}

function bodyField(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  const path = findCardData(body);
  return path === undefined ? undefined : path === 'body' ? 'request body' : `parameter "${path}"`;
}
