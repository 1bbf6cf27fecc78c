import { createHmac, timingSafeEqual } from 'node:crypto';

/** A delivery whose signature, timestamp or headers do not check out. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Record<string, string | string[] | undefined> | Headers;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const value = bag[name] ?? Object.entries(bag).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a webhook delivery per Standard Webhooks (docs/EVENTS.md "Delivery"): the HMAC-SHA256,
 * keyed with the base64 bytes after `whsec_`, of `<webhook-id>.<webhook-timestamp>.<raw body>`,
 * against each `v1,<base64>` of `webhook-signature` in constant time, and a timestamp within
 * `toleranceSeconds` (default 300) of now. Pass the body exactly as received (not re-serialized).
 */
export class WebhookVerifier {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly options: { toleranceSeconds?: number; now?: () => number } = {},
  ) {
    const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
    this.key = Buffer.from(encoded, 'base64');
    if (this.key.length === 0) throw new Error('webhook secret: expected whsec_ followed by base64');
  }

  /** The signature value the service would send for these parts (`v1,<base64>`). */
  sign(id: string, timestamp: number, body: string | Buffer): string {
    const mac = createHmac('sha256', this.key).update(`${id}.${timestamp}.`).update(body).digest('base64');
    return `v1,${mac}`;
  }

  /** Returns the parsed event when the delivery is authentic; throws WebhookVerificationError otherwise. */
  verify<T = { id: string; type: string; [key: string]: unknown }>(body: string | Buffer, headers: HeaderBag): T {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook headers');
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
    const seconds = Number(timestamp);
    const now = Math.floor((this.options.now?.() ?? Date.now()) / 1000);
    const tolerance = this.options.toleranceSeconds ?? 300;
    if (Math.abs(now - seconds) > tolerance)
      throw new WebhookVerificationError('webhook-timestamp outside the tolerance');
    const expected = Buffer.from(this.sign(id, seconds, body).slice('v1,'.length), 'base64');
    for (const candidate of signatures.split(' ')) {
      const [version, value] = candidate.split(',', 2);
      if (version !== 'v1' || !value) continue;
      const given = Buffer.from(value, 'base64');
      if (given.length === expected.length && timingSafeEqual(given, expected)) {
        return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as T;
      }
    }
    throw new WebhookVerificationError('no matching signature');
  }
}
