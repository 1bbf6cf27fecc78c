import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';

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

/** Body validation: unknown fields are refused, and the message names the offending parameter. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const found = firstProblem(errors);
      if (!found) return new AppError(Errors.E2000);
      const problem = found.problem.replace(/^property \S+ should not exist$/, 'is not a field of this request');
      return new AppError(Errors.E2000, `Invalid parameter "${found.path}": ${problem}.`);
    },
  });
}
