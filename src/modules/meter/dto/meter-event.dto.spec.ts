import 'reflect-metadata';
import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AppError } from '../../../common/errors/app-error.js';
import { guardBody, validateBody } from '../../../common/http/validation.js';
import { CreateMeterEventDto } from './meter-event.dto.js';

/**
 * What the path before the compiled check says of a body: the body guard (prototype-named keys, odd
 * text), then class-validator with the pipe's options.
 */
async function classValidator(body: Record<string, unknown>) {
  try {
    guardBody(structuredClone(body));
  } catch {
    return { valid: false, dto: undefined };
  }
  const dto = plainToInstance(CreateMeterEventDto, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  return { valid: errors.length === 0, dto };
}

const UUID = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
const text = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.string({ minLength: 95, maxLength: 105 }),
  fc.string({ minLength: 250, maxLength: 260 }),
  fc.constantFrom('\uFE0F', 'a\uFE0F', '\uD83D\uDE00', 'x'.repeat(100) + '\uFE0F', ' ', ''),
);
const field = fc.oneof(
  text,
  fc.constantFrom(UUID, UUID.toUpperCase(), UUID.slice(1), 'not-a-uuid', '00000000-0000-0000-0000-000000000000'),
  fc.constantFrom(null, 1, true, [], {}, { calls: '1' }, ['a']),
);
/** Mostly a value of the right kind, so that both outcomes are common. */
const usually = (good: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: field, weight: 1 });
const body = fc.record(
  {
    event_name: usually(text),
    customer_id: usually(fc.uuid()),
    identifier: usually(text),
    payload: usually(fc.dictionary(fc.string(), fc.string())),
    timestamp: usually(fc.string()),
    extra: field,
  },
  { requiredKeys: ['event_name', 'customer_id', 'payload'] },
);

describe('CreateMeterEventDto compiled check', () => {
  it('accepts exactly the bodies class-validator accepts, and builds the same DTO', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        const plain = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
        const expected = await classValidator(plain);
        const outcome = await validateBody(CreateMeterEventDto, plain).then(
          (dto) => ({ valid: true, dto }),
          (error: unknown) => {
            if (!(error instanceof AppError)) throw error;
            return { valid: false, dto: undefined };
          },
        );
        expect(outcome.valid).toBe(expected.valid);
        if (outcome.valid) {
          accepted++;
          expect(outcome.dto).toBeInstanceOf(CreateMeterEventDto);
          expect({ ...outcome.dto }).toEqual({ ...expected.dto });
        }
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(30);
  });

  it('still words a refused body as class-validator does', async () => {
    await expect(validateBody(CreateMeterEventDto, { event_name: '', customer_id: UUID, payload: {} })).rejects.toThrow(
      /Invalid parameter "event_name"/,
    );
    await expect(
      validateBody(CreateMeterEventDto, { event_name: 'a', customer_id: UUID, payload: {}, other: 1 }),
    ).rejects.toThrow(/Invalid parameter "other": is not a field of this request/);
  });
});
