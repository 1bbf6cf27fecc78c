import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';

function firstProblem(errors: ValidationError[], parent = ''): { path: string; problem: string } | undefined {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) return { path, problem: Object.values(error.constraints)[0] };
    const nested = firstProblem(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * The global validation pipe's rules (unknown fields refused, E2000 naming the parameter), run by
 * the service itself where a contract code must win over shape errors (E6422 on `customer_id`).
 */
export async function validateBody<T extends object>(type: ClassConstructor<T>, body: unknown): Promise<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(Errors.E2000, 'The request body must be a JSON object.');
  }
  const dto = plainToInstance(type, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  const found = firstProblem(errors);
  if (found) {
    const problem = found.problem.replace(/^property \S+ should not exist$/, 'is not a field of this request');
    throw new AppError(Errors.E2000, `Invalid parameter "${found.path}": ${problem}.`);
  }
  return dto;
}
