import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
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

/** How deep a request body may nest objects and arrays; deeper bodies are refused before anything walks them. */
export const MAX_BODY_DEPTH = 32;

/**
 * Keys that name a member of `Object.prototype` (`__proto__`, `constructor`, `toString`, …) or
 * `prototype`: refused anywhere in a body, as they reach the prototype chain in the code and
 * libraries that look keys up on plain objects.
 */
const PROTOTYPE_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** A NUL byte, or a UTF-16 surrogate without its pair: text PostgreSQL, JSON and URI functions cannot carry. */
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, or undefined when it can. */
export function unsafeText(text: string): string | undefined {
  const match = UNSAFE_TEXT.exec(text);
  if (!match) return undefined;
  return match[0] === '\u0000' ? 'must not contain a NUL byte' : 'must not contain an unpaired UTF-16 surrogate';
}

/** Whether `key` names an `Object.prototype` member (or `prototype`). */
export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

const childPath = (parent: string, key: string | number) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/**
 * Marks a body the guard already passed (the middleware's), so the pipe does not walk it again: a
 * non-enumerable symbol on the body itself, which no key walk, spread, `JSON.stringify` or
 * fingerprint sees. Not a WeakSet: a weak collection keyed by bodies grows with every request that
 * outlives a scavenge and is rebuilt on the event loop (see requestContextMiddleware).
 */
const GUARDED = Symbol('wallet.bodyGuarded');

/**
 * The body guard, run before anything else walks a body (the middleware after the body parsers,
 * then the pipe and `validateBody` for bodies they get otherwise): NUL bytes and unpaired
 * surrogates in any string (keys and values), nesting deeper than {@link MAX_BODY_DEPTH} and
 * prototype-named keys are E2000 naming the parameter. Iterative, so no body can overflow the stack.
 */
export function guardBody(body: unknown, prefix = ''): void {
  if (typeof body !== 'object' || body === null) {
    if (typeof body === 'string') checkText(body, prefix || 'body');
    return;
  }
  if ((body as { [GUARDED]?: true })[GUARDED]) return;
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: prefix, depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      checkText(value, path);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BODY_DEPTH) {
      throw new AppError(Errors.E2000, `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`);
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        stack.push({ value: value[i], path: childPath(path, i), depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(value)) {
      const keyPath = childPath(path, key);
      if (PROTOTYPE_KEYS.has(key)) {
        throw new AppError(Errors.E2000, `Invalid parameter "${keyPath}": is not a field of this request.`);
      }
      const why = unsafeText(key);
      if (why) throw new AppError(Errors.E2000, `Invalid parameter name under "${path || 'body'}": ${why}.`);
      stack.push({ value: (value as Record<string, unknown>)[key], path: keyPath, depth: depth + 1 });
    }
  }
  if (Object.isExtensible(body)) Object.defineProperty(body, GUARDED, { value: true });
}

function checkText(text: string, path: string): void {
  const why = unsafeText(text);
  if (why) throw new AppError(Errors.E2000, `Invalid parameter "${path}": ${why}.`);
}

/** Query strings get the same text rules: a NUL byte or unpaired surrogate in a name or value is E2004. */
export function guardQuery(query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    const why =
      unsafeText(name) ?? values.map((v) => (typeof v === 'string' ? unsafeText(v) : undefined)).find(Boolean);
    if (why) throw new AppError(Errors.E2004, `Invalid query parameter "${unsafeText(name) ? 'name' : name}": ${why}.`);
  }
}

/**
 * Mounted after the body parsers: the body guard and the query rules before any interceptor,
 * guard or pipe (the idempotency fingerprint, the request log) walks the request.
 */
export function requestGuardMiddleware(req: Request, _res: Response, next: NextFunction): void {
  try {
    guardQuery(req.query as Record<string, unknown>);
    if (req.body !== undefined) guardBody(req.body);
    next();
  } catch (error) {
    next(error);
  }
}

/** Constraints checked first: a field that should not be there, then one that must be there or be non-empty. */
const PRESENCE = new Set(['whitelistValidation', 'isDefined', 'isNotEmpty']);
/** Range and length constraints: reported only when the value is of the right type and form. */
const RANGE =
  /^(min|max|minLength|maxLength|isLength|length|arrayMinSize|arrayMaxSize|arrayNotEmpty|isPositive|isNegative|minDate|maxDate|isByteLength)$/;
/** Type constraints: what a value must be before its form or range matters. */
const TYPE =
  /^(isString|isInt|isNumber|isBoolean|isObject|isArray|isDate|isNotEmptyObject|isIn|isEnum|nestedValidation|isNumberString)$/;

function rank(constraint: string): number {
  if (PRESENCE.has(constraint)) return 0;
  if (TYPE.test(constraint)) return 1;
  if (RANGE.test(constraint)) return 3;
  return 2;
}

/**
 * The message of the constraint to report for a field: `is required` when the field is absent
 * (a constraint failed on `undefined`, so the field is not `@IsOptional()`), else the first failing
 * constraint by {@link rank} (presence, type, form, range), with class-validator's leading
 * property name dropped (the message names the parameter already).
 */
function describeProblem(error: ValidationError): string {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  if (error.value === undefined && !names.includes('whitelistValidation')) return 'is required';
  const [first] = names.sort((a, b) => rank(a) - rank(b));
  const message = constraints[first];
  if (first === 'whitelistValidation') return 'is not a field of this request';
  return message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message;
}

/** `line_items[0].price`: Stripe's form of a nested parameter (array members by index in brackets). */
const childOf = (parent: string, property: string) =>
  parent && /^\d+$/.test(property) ? `${parent}[${property}]` : parent ? `${parent}.${property}` : property;

/**
 * The parameter to report: fields in the order the DTO declares them, an absent required field
 * first (it is what a caller most often got wrong), then the first field whose own value or any
 * nested member fails.
 */
function firstProblem(errors: ValidationError[], parent = ''): { path: string; problem: string } | undefined {
  const missing = errors.find((e) => e.constraints && e.value === undefined);
  for (const error of missing ? [missing] : errors) {
    const path = childOf(parent, error.property);
    if (error.constraints) return { path, problem: describeProblem(error) };
    const nested = firstProblem(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

/** E2000 naming the first invalid parameter, under `prefix` (e.g. `events[3]`) when given, in `param` too. */
function validationError(errors: ValidationError[], prefix?: string): AppError {
  const found = firstProblem(errors, prefix);
  if (!found) return new AppError(Errors.E2000);
  if (found.problem === 'is required') return new AppError(Errors.E2000, `"${found.path}" is required.`).on(found.path);
  return new AppError(Errors.E2000, `Invalid parameter "${found.path}": ${found.problem}.`).on(found.path);
}

/**
 * A compiled check of one DTO's class-validator rules, for a hot path: the DTO (as `plainToInstance`
 * would build it) when the body passes every rule, or undefined to let class-validator decide and
 * word the error. It must never accept a body class-validator refuses; it may hand any body it is
 * unsure of to class-validator. Written with class-validator's own predicates (`isString`,
 * `length`, `isUUID`, ...), so the rules cannot drift apart; `validation.spec.ts` compares the two.
 */
export type CompiledValidator<T extends object> = (body: Record<string, unknown>) => T | undefined;

const COMPILED = new Map<ClassConstructor<object>, CompiledValidator<object>>();

/** Registers the compiled check for `type`; the pipe and `validateBody` try it before class-validator. */
export function compiledValidator<T extends object>(type: ClassConstructor<T>, check: CompiledValidator<T>): void {
  COMPILED.set(type, check as CompiledValidator<object>);
}

/** The DTO when `type` has a compiled check that accepts the (guarded, plain-object) body. */
function compiledCheck(type: unknown, body: unknown): object | undefined {
  const check = COMPILED.get(type as ClassConstructor<object>);
  if (!check || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  return check(body as Record<string, unknown>);
}

/** The global pipe: the body guard, then the compiled check where the DTO has one, else class-validator. */
class GuardedValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      guardBody(value);
      const dto = compiledCheck(metadata.metatype, value);
      if (dto) return Promise.resolve(dto);
    }
    return super.transform(value, metadata);
  }
}

/** The global pipe (registered as APP_PIPE): the rules above for every `@Body()` DTO. */
export function createValidationPipe(): ValidationPipe {
  return new GuardedValidationPipe({
    ...OPTIONS,
    transform: true,
    // `value` stays on the errors (never sent): an absent field (`undefined`) is reported as required.
    validationError: { target: false, value: true },
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
  guardBody(body, prefix);
  const compiled = compiledCheck(type, body) as T | undefined;
  if (compiled) return compiled;
  const dto = plainToInstance(type, body);
  const errors = await validate(dto, OPTIONS);
  if (errors.length) throw validationError(errors, prefix);
  return dto;
}
