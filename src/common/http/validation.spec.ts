import { Type } from 'class-transformer';
import { IsArray, IsInt, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { AppError } from '../errors/app-error.js';
import { Optional } from './fields.js';
import { guardBody, validateBody } from './validation.js';

describe('guardBody', () => {
  it('refuses a NUL byte, however deep', () => {
    expect(() => guardBody({ a: [{ b: 'x\u0000y' }] })).toThrow(AppError);
  });

  it('marks a body it passed so it is not walked again, invisibly to keys, spreads and JSON', () => {
    const body: Record<string, unknown> = { event_name: 'api_calls', payload: { value: '1' } };
    guardBody(body);
    expect(Object.keys(body)).toEqual(['event_name', 'payload']);
    expect(JSON.stringify(body)).toBe('{"event_name":"api_calls","payload":{"value":"1"}}');
    expect(Object.getOwnPropertySymbols({ ...body })).toEqual([]);
    // Passed once: a later call returns at once (the pipe after the middleware), even if it would now refuse.
    body.payload = { value: 'x\u0000' };
    expect(() => guardBody(body)).not.toThrow();
    // A copy is a new body and is walked.
    expect(() => guardBody({ ...body })).toThrow(AppError);
  });

  it('walks a body it cannot mark (frozen) every time, without failing on it', () => {
    const frozen = Object.freeze({ a: 'ok' });
    expect(() => guardBody(frozen)).not.toThrow();
    expect(Object.getOwnPropertySymbols(frozen)).toEqual([]);
    expect(() => guardBody(Object.freeze({ a: 'x\u0000' }))).toThrow(AppError);
  });
});

describe('validateBody errors', () => {
  class Item {
    @IsString() @Length(1, 10) price: string;
    @IsInt() @Min(1) @Max(10) quantity: number;
  }
  class Body {
    @IsInt() @Min(1) @Max(99) amount: number;
    @IsString() currency: string;
    @Optional() @IsArray() @ValidateNested({ each: true }) @Type(() => Item) line_items?: Item[];
  }
  const failure = async (body: unknown) => {
    const error = await validateBody(Body, body).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return { message: (error as AppError).message, param: (error as AppError).param };
  };

  it('says a missing field is required, before any other field is checked', async () => {
    expect(await failure({ currency: 'THB' })).toEqual({ param: 'amount', message: '"amount" is required.' });
    expect(await failure({ amount: 'x' })).toEqual({ param: 'currency', message: '"currency" is required.' });
  });

  it('reports the type before the range, without repeating the name', async () => {
    expect(await failure({ amount: 'many', currency: 'THB' })).toEqual({
      param: 'amount',
      message: 'Invalid parameter "amount": must be an integer number.',
    });
    expect((await failure({ amount: 100, currency: 'THB' })).message).toBe(
      'Invalid parameter "amount": must not be greater than 99.',
    );
  });

  it('names nested parameters Stripe style', async () => {
    expect(await failure({ amount: 1, currency: 'THB', line_items: [{ quantity: 1 }] })).toEqual({
      param: 'line_items[0].price',
      message: '"line_items[0].price" is required.',
    });
    expect((await failure({ amount: 1, currency: 'THB', line_items: [{ price: 'p', quantity: 0 }] })).param).toBe(
      'line_items[0].quantity',
    );
  });

  it('names an unknown field as not a field of this request', async () => {
    expect(await failure({ amount: 1, currency: 'THB', colour: 'red' })).toEqual({
      param: 'colour',
      message: 'Invalid parameter "colour": is not a field of this request.',
    });
  });
});
