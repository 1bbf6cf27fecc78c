import { containsCardNumber, findCardData, maskCardNumbers } from './card-data.js';
import { newId } from '../ids.js';
import { redactUrl } from './redact-url.js';

describe('card data detection', () => {
  it('finds card numbers typed whole, grouped by spaces or dashes, inside text', () => {
    for (const text of [
      '4242424242424242',
      '4242 4242 4242 4242',
      '4242-4242-4242-4242',
      'order for 5555555555554444 today',
      '378282246310005',
    ]) {
      expect(containsCardNumber(text)).toBe(true);
    }
  });

  it('leaves other digits alone: failing Luhn, too short or long, no card network, timestamps', () => {
    for (const text of [
      '4242424242424241',
      '424242424242',
      '42424242424242424242424',
      '1763802100000',
      '004999000000001',
      'INV-20261125-ABCDEFGH',
      '+66812345678',
    ]) {
      expect(containsCardNumber(text)).toBe(false);
    }
  });

  it('never takes an id for a card number: 200,000 UUIDv7 ids and the ones that once matched', () => {
    // Once matched as dash-grouped digit runs passing Luhn (about one id in 750): E2009 on a valid request.
    for (const id of [
      '01a2122e-380b-77c4-a317-9011098364b4',
      '01a2122e-380c-74c4-8272-48641526b9aa',
      '01a2122e-3824-7567-9827-1640745e4414',
    ]) {
      expect(containsCardNumber(id)).toBe(false);
      expect(maskCardNumbers(`/charges/${id}`)).toBe(`/charges/${id}`);
    }
    const flagged = Array.from({ length: 200_000 }, () => newId()).filter((id) => containsCardNumber(id));
    expect(flagged).toEqual([]);
    expect(findCardData({ target_id: newId(), metadata: { note: 'card 4242 4242 4242 4242 exp 12/30' } })).toBe(
      'metadata.note',
    );
  });

  it('names the field that carries card data, by value, key or name', () => {
    expect(findCardData({ card: { number: '4242 4242 4242 4242' } })).toBe('card.number');
    expect(findCardData({ card: { number: '4242' } })).toBe('card.number');
    expect(findCardData({ metadata: { note: 'card 4000000000000002' } })).toBe('metadata.note');
    expect(findCardData({ items: [{ x: 4242424242424242 }] })).toBe('items[0].x');
    expect(findCardData({ card_number: 'x' })).toBe('card_number');
    expect(findCardData({ cvc: '123' })).toBe('cvc');
    expect(findCardData({ metadata: { '4242424242424242': 'x' } })).toBe('metadata');
    expect(findCardData({ payment_method_type: 'card', token: 'tok_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b' })).toBe(
      undefined,
    );
    // Bank account numbers and national IDs are long digit strings, not cards.
    expect(findCardData({ extra_fields: { accountNumber: '4242424242424242' } })).toBe(undefined);
    expect(findCardData({ primary_identify_id: '4242424242424242' })).toBe(undefined);
  });

  it('masks card numbers in logged URLs, grouped or whole', () => {
    expect(maskCardNumbers('/x/4242424242424242/y')).toBe('/x/[redacted card number]/y');
    expect(redactUrl('/api/v1/a/platform/wallet/charges?q=4242%204242%204242%204242&limit=1')).toBe(
      '/api/v1/a/platform/wallet/charges?q=[redacted card number]&limit=1',
    );
    expect(redactUrl('/api/v1/a/platform/wallet/charges?q=12%20ab')).toBe(
      '/api/v1/a/platform/wallet/charges?q=12%20ab',
    );
  });
});
