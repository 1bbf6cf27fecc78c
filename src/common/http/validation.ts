import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';

/**
 * The one body validator. Every request body is checked by these rules, whether through the
 * global pipe or by a service that must run it itself (a contract code that wins over shape errors,
 * or each member of a batch): unknown fields are refused, and E2000 names the offending parameter.
 */
const OPTIONS = { whitelist: true, forbidNonWhitelisted: true } as const;

function firstProblem(errors: ValidationError[], parent = ''): { path: string; problem: string } | undefined {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      const [problem] = Object.values(error.constraints);
      return { path, problem };
    }
    const nested = firstProblem(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

/** E2000 naming the first invalid parameter, under `prefix` (e.g. `events[3]`) when given. */
function validationError(errors: ValidationError[], prefix?: string): AppError {
  const found = firstProblem(errors, prefix);
  if (!found) return new AppError(Errors.E2000);
  const problem = found.problem.replace(/^property \S+ should not exist$/, 'is not a field of this request');
  return new AppError(Errors.E2000, `Invalid parameter "${found.path}": ${problem}.`);
}

/** The global pipe (registered as APP_PIPE): the rules above for every `@Body()` DTO. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    ...OPTIONS,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationError(errors),
  });
}

/**
 * The same rules, run by a service on a body it received raw: where a contract code must win over
 * shape errors (E6422 on `customer_id`), or for each member of a batch (`prefix` names its position).
 */
export async function validateBody<T extends object>(
  type: ClassConstructor<T>,
  body: unknown,
  prefix?: string,
): Promise<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(Errors.E2000, `${prefix ? `"${prefix}"` : 'The request body'} must be a JSON object.`);
  }
  const dto = plainToInstance(type, body);
  const errors = await validate(dto, OPTIONS);
  if (errors.length) throw validationError(errors, prefix);
  return dto;
}
