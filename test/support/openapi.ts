import { Ajv, type ValidateFunction } from 'ajv';
import type { TestApp } from './harness.js';

type Schema = Record<string, unknown>;

/** The keys of an OpenAPI path item that are operations (the rest are parameters, summary, servers). */
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** OpenAPI 3.0 schema -> JSON Schema: `nullable` becomes a null alternative, refs point at definitions. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) {
    if (key === 'nullable' || key === 'example' || key === 'examples') continue;
    out[key] = key === '$ref' ? String(value).replace('#/components/schemas/', '#/definitions/') : toJsonSchema(value);
  }
  if ((node as Schema).nullable === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}

/**
 * Checks real responses against the published OpenAPI document, so the document cannot drift
 * from what the service answers.
 */
export class OpenApiContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();

  private constructor(private readonly document: { paths: Schema; components?: { schemas?: Schema } }) {}

  static async load(t: TestApp): Promise<OpenApiContract> {
    const res = await t.http.get('/docs-json');
    return new OpenApiContract(res.body);
  }

  /** Every documented operation as `METHOD /path`, e.g. `GET /api/v1/{app}/platform/wallet/customers/{id}`. */
  operations(): string[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      Object.keys(item as Schema)
        .filter((method) => HTTP_METHODS.has(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
  }

  /** `path` is the documented template, e.g. `/api/v1/{app}/platform/wallet/customers/{id}`. */
  assert(method: string, path: string, res: { status: number; body: unknown }): void {
    const key = `${method} ${path} ${res.status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const op = (this.document.paths[path] as Schema | undefined)?.[method.toLowerCase()] as Schema | undefined;
      if (!op) throw new Error(`OpenAPI has no ${method} ${path}`);
      const response = (op.responses as Schema)[String(res.status)] as Schema | undefined;
      const schema = ((response?.content as Schema | undefined)?.['application/json'] as Schema | undefined)?.schema;
      if (!schema) throw new Error(`OpenAPI documents no JSON ${res.status} for ${method} ${path}`);
      validate = this.ajv.compile({
        ...(toJsonSchema(schema) as Schema),
        definitions: toJsonSchema(this.document.components?.schemas ?? {}),
      });
      this.cache.set(key, validate);
    }
    if (!validate(res.body)) {
      throw new Error(`${key} does not match the OpenAPI document: ${this.ajv.errorsText(validate.errors)}`);
    }
  }
}
