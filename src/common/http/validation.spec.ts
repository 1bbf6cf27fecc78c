import { AppError } from '../errors/app-error.js';
import { guardBody } from './validation.js';

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
