import type { OpenAPIObject } from '@nestjs/swagger';
import type { ErrorDefinition } from '../errors/error-catalog.js';
import { Errors } from '../errors/error-catalog.js';
import { errorContent } from './decorators.js';

type Json = Record<string, unknown>;
type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type Responses = Operation['responses'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The value type of each free-form object, by property name: `extra_fields` (a bank account's
 * bank code, account number... by type) and a meter event's `payload` hold strings; everything
 * else free-form (`metadata`, which the contract calls a free-form object, an account's
 * `customer_mapping`, evidence, billing details...) holds any JSON value.
 */
const FREE_FORM_VALUES: Record<string, Json> = {
  extra_fields: { type: 'string' },
  payload: { type: 'string' },
};

/** An object schema that names no properties and no value type: generated clients would type it `Record<string, never>`. */
function isFreeObject(schema: Json): boolean {
  return (
    schema.type === 'object' &&
    !schema.properties &&
    !schema.$ref &&
    !schema.allOf &&
    !schema.oneOf &&
    !schema.anyOf &&
    !schema.enum &&
    (schema.additionalProperties === undefined || schema.additionalProperties === true)
  );
}

/** Every schema object below `node`, each with the property name it is the schema of (if any). */
function walk(node: unknown, visit: (schema: Json, name?: string) => void, name?: string): void {
  if (Array.isArray(node)) return node.forEach((n) => walk(n, visit, name));
  if (!node || typeof node !== 'object') return;
  const obj = node as Json;
  if (typeof obj.type === 'string' || obj.allOf || obj.oneOf || obj.anyOf || obj.$ref) visit(obj, name);
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === 'properties' && value && typeof value === 'object')
      for (const [prop, schema] of Object.entries(value as Json)) walk(schema, visit, prop);
    else walk(value, visit, key === 'items' ? name : undefined);
  }
}

/**
 * A nullable reference: OpenAPI 3.0 ignores `nullable` beside `$ref` and cannot make an `allOf`
 * branch accept null (`null` must match every branch), so validators (Prism) refuse the `null` the
 * service sends. The referenced object is written in place with `nullable: true`, the one 3.0 form
 * every tool reads alike (Prism and Ajv, openapi-typescript: `{ ... } | null`, Spectral, Redocly);
 * `anyOf` with a null branch is not: Prism's converter turns `enum: [null]` on a nullable type into
 * `[null, null]`, a schema Ajv refuses to compile, and Prism then checks nothing silently.
 */
function nullableReference(schema: Json, schemas: Record<string, unknown>, inlined: Set<string>): void {
  if (schema.nullable !== true) return;
  const ref = (schema.$ref ??
    (Array.isArray(schema.allOf) && schema.allOf.length === 1 ? (schema.allOf[0] as Json).$ref : undefined)) as
    string | undefined;
  const target = ref ? (schemas[ref.split('/').pop()!] as Json | undefined) : undefined;
  if (!target || typeof target.type !== 'string') return;
  inlined.add(ref!.split('/').pop()!);
  const description = schema.description;
  for (const key of Object.keys(schema)) delete schema[key];
  Object.assign(schema, structuredClone(target), description === undefined ? {} : { description }, { nullable: true });
}

/** Adds `definitions` under their statuses; a status already documented with the error object gains their examples. */
function addErrors(responses: Responses, definitions: ErrorDefinition[]): void {
  const byStatus = new Map<number, ErrorDefinition[]>();
  for (const d of definitions) byStatus.set(d.http_status, [...(byStatus.get(d.http_status) ?? []), d]);
  for (const [status, defs] of byStatus) {
    const existing = responses[String(status)] as Json | undefined;
    const fresh = errorContent(defs);
    if (!existing) {
      responses[String(status)] = fresh;
      continue;
    }
    const json = (existing.content as Json | undefined)?.['application/json'] as Json | undefined;
    const examples = json?.examples as Json | undefined;
    const sameBody =
      (json?.schema as Json | undefined)?.$ref === (fresh.content['application/json'].schema.$ref as string);
    // Documented with another body (OAuth's RFC 6749 errors): the status is listed already.
    if (!examples || !sameBody) continue;
    const added = defs.filter((d) => !(d.code in examples));
    if (!added.length) continue;
    Object.assign(examples, (fresh.content['application/json'] as Json).examples);
    existing.description = [existing.description, ...added.map((d) => `${d.code} ${d.key}: ${d.message}`)]
      .filter(Boolean)
      .join('\n\n');
  }
}

/** What a success or redirect status says when its decorator gave no description. */
const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK: the object or list the operation returns.',
  '201': 'Created: the new object.',
  '204': 'Done: no body.',
  '302': 'A redirect to the `Location` header.',
  '303': 'A redirect to the `Location` header.',
};

/**
 * Statuses every operation can answer whatever its controller says, in the one place new
 * operations inherit them from:
 * - any operation: 500 E5000 and 503 E5001 (the database unreachable, decided by the error
 *   filter) and 431 E2008 (a request head over the limit);
 * - an operation with credentials (`security`): 401 E1200 and 403 E1300, and 429 E2429 (the
 *   failed-authentication throttle and the per-credential limit);
 * - an operation that takes a body (every POST, PUT and PATCH: the body parsers run before the
 *   route): 400 E2000/E2001, 413 E2003 and 415 E2002;
 * - an operation with query parameters: 400 E2004.
 */
function statusesOf(op: Operation, method: string): ErrorDefinition[] {
  const defs: ErrorDefinition[] = [Errors.E2008, Errors.E5000, Errors.E5001];
  if ((op.security ?? []).some((s) => Object.keys(s).length > 0)) defs.push(Errors.E1200, Errors.E1300, Errors.E2429);
  if (method !== 'get' && method !== 'delete') defs.push(Errors.E2000, Errors.E2001, Errors.E2003, Errors.E2002);
  if ((op.parameters ?? []).some((p) => 'in' in p && p.in === 'query')) defs.push(Errors.E2004);
  return defs;
}

/** A POST without a declared body: nothing reads one, but a client may send `{}` (and the body parsers still run). */
const NO_FIELDS_BODY = {
  required: false,
  description: 'No fields: send no body or an empty JSON object.',
  content: { 'application/json': { schema: { type: 'object', additionalProperties: false }, example: {} } },
};

/**
 * Makes the document tell the truth about what the service answers, for every operation a
 * controller declares (so a new DTO or controller needs nothing beyond the usual decorators):
 * free-form objects get their value type, nullable references accept null, every status the
 * pipeline can answer is listed with the error object, a body-less POST declares the empty body
 * it accepts, no response has an empty description, and the bearer scheme says its tokens are opaque.
 */
export function tellTheTruth(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const inlined = new Set<string>();
  walk([schemas, document.paths], (schema, name) => {
    nullableReference(schema, schemas, inlined);
    if (isFreeObject(schema)) schema.additionalProperties = (name && FREE_FORM_VALUES[name]) ?? true;
  });
  // A schema written in place everywhere it was used is no longer a component anything refers to.
  const text = JSON.stringify(document);
  for (const name of inlined) if (!text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (method === 'post' && !op.requestBody) op.requestBody = structuredClone(NO_FIELDS_BODY);
      addErrors(op.responses, statusesOf(op, method));
      for (const [status, response] of Object.entries(op.responses)) {
        if (response && 'description' in response && !response.description)
          response.description = SUCCESS_DESCRIPTIONS[status] ?? `HTTP ${status}.`;
      }
    }
  }
  const bearer = document.components?.securitySchemes?.bearer;
  if (bearer && 'scheme' in bearer) {
    delete bearer.bearerFormat;
    bearer.description =
      'An opaque OAuth 2.0 access token from `POST /oauth/token` (not a JWT: the service looks it up, ' +
      'clients must not parse it). Privilege `user` or `superuser`.';
  }
  return document;
}
