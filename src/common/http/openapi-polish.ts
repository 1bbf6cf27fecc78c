import type { OpenAPIObject } from '@nestjs/swagger';
import { tellTheTruth } from './openapi-truth.js';
import { REQUEST_EXAMPLES } from './request-examples.js';

type Json = Record<string, unknown>;
type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * One line per tag in the reference. A tag not listed here still gets declared (so Spectral's
 * operation-tag-defined holds for every new module); add its line here to describe it.
 */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  customers: 'The buyers of an application: contact details, addresses, metadata and labels.',
  meters: 'What usage is counted (an event name and the payload key that carries the value) and how it adds up.',
  meter_events: 'Usage reports: one event per unit of work, forwarded to the billing provider.',
  checkouts: 'Hosted payment and subscription sessions (PromptPay QR, cards) a buyer completes on a hosted page.',
  payment_intents: 'One attempt to collect an amount, through its states.',
  payment_links: 'Reusable links that open a checkout.',
  charges: 'Money movements that collected (or failed to collect) a payment.',
  invoices: 'Bills for subscriptions and one-off amounts.',
  balances: 'What an account holds, per currency, as the ledger sums it.',
  balance_transactions: 'Ledger entries that changed a balance.',
  accounts: 'Connected accounts (merchants) and their verification (KYB).',
  bank_accounts: 'Bank accounts that receive payouts.',
  bank_account_intents: 'Hosted sessions in which a merchant adds a bank account.',
  disputes: 'Chargebacks a buyer opened on a charge, and their evidence.',
  events: 'The record of every state change, as webhooks deliver it.',
  webhook_endpoints: 'Where events are delivered, signed with Standard Webhooks.',
  errors: 'The catalog of every error code the service answers with.',
  oauth: 'OAuth 2.0 authorization server: access tokens for dashboard users.',
  provider_webhooks:
    'Where Opn Payments and Stripe deliver their webhooks: verified with the provider, applied once per event.',
  provider_returns:
    'Where the payer’s browser comes back after 3-D Secure at Opn or Stripe: the charge is read back from the provider and applied once.',
  'test helpers': 'Test mode only: move test records through states a real provider would (X-Test-Mode: true).',
};

const CREDENTIALS: Record<string, string> = {
  secret_key: 'a secret key (HTTP Basic, privilege machine)',
  bearer: 'an OAuth access token (privilege user or superuser)',
  session: 'a one-time session token from a hosted flow (X-Session-Token)',
};

/** Default operation description: the summary, who may call it, and which error statuses it documents. */
function describe(op: Operation): string {
  const lines = [`${op.summary ?? ''}.`.replace(/\.\.$/, '.')];
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  lines.push(
    schemes.length
      ? `Credentials: ${schemes.map((s) => CREDENTIALS[s] ?? s).join('; or ')}.`
      : 'No credentials: a public endpoint.',
  );
  const errors = Object.keys(op.responses ?? {}).filter((status) => /^[45]/.test(status));
  if (errors.length) lines.push(`Errors (the flat error object, codes listed per status): ${errors.join(', ')}.`);
  return lines.join('\n\n');
}

/**
 * Swagger UI fills each field of a form body (application/x-www-form-urlencoded) that has no
 * example with the placeholder "string", and sends it: on the token routes a public client would
 * send `client_secret=string` (E1221). An optional field outside the body's example starts empty.
 */
function emptyFormFields(document: OpenAPIObject, ref: string): void {
  const schema = document.components?.schemas?.[ref] as Json | undefined;
  const props = (schema?.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const example = REQUEST_EXAMPLES[ref] ?? {};
  for (const [name, prop] of Object.entries(props))
    if (!required.has(name) && !(name in example) && prop.example === undefined) prop.example = '';
}

/** Visits every schema object below `node` (components, parameters, bodies, responses). */
function walkSchemas(node: unknown, visit: (schema: Json) => void): void {
  if (Array.isArray(node)) return node.forEach((n) => walkSchemas(n, visit));
  if (!node || typeof node !== 'object') return;
  const obj = node as Json;
  if (obj.properties && typeof obj.properties === 'object') visit(obj);
  for (const [key, value] of Object.entries(obj))
    if (key !== 'example' && key !== 'examples') walkSchemas(value, visit);
}

/**
 * The one place the generated document is brought up to the lint bar (Spectral `spectral:oas`,
 * Redocly `recommended`, see .spectral.yaml and redocly.yaml), so a new controller inherits it:
 * - every tag an operation uses is declared, with its line from TAG_DESCRIPTIONS;
 * - an operation without a description gets one from its summary, credentials and errors;
 * - a request body gets its example from REQUEST_EXAMPLES (request-examples.ts);
 * - a parameter without a schema is a string (generated clients would type it `unknown`);
 * - `X-Test-Mode` has the example `true`, so Try it out with a test key reads test data;
 * - an operation without a security entry is public and says so (`security: []`): every
 *   authenticated route has one from `@Auth(...)`;
 * - a property with a default is not required (the service fills it in);
 * - first {@link tellTheTruth} (openapi-truth.ts): value types of free-form objects, nullable
 *   references, every status the pipeline can answer, bodies of body-less POSTs, descriptions.
 */
export function polishOpenApi(document: OpenAPIObject): OpenAPIObject {
  tellTheTruth(document);
  const used = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      (op.tags ?? []).forEach((t) => used.add(t));
      op.security ??= [];
      for (const param of op.parameters ?? []) {
        // A parameter declared without a type (e.g. `@ApiParam({ name, example })`) is a string.
        if ('name' in param && !param.schema && !param.content) param.schema = { type: 'string' };
        // Try it out starts from the examples, and a partner starts with a test key: without
        // `X-Test-Mode: true` every call with it is E1300 (a test credential on live data).
        if ('name' in param && param.name === 'X-Test-Mode' && param.schema && !('$ref' in param.schema))
          param.schema.example ??= 'true';
      }
      if (!op.description) op.description = describe(op);
      const content = op.requestBody && 'content' in op.requestBody ? op.requestBody.content : undefined;
      const body = content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'];
      const ref = body?.schema && '$ref' in body.schema ? body.schema.$ref.split('/').pop() : undefined;
      // A body with named `examples` (from its controller) keeps them: OpenAPI allows one or the other.
      if (body && ref && REQUEST_EXAMPLES[ref] && body.example === undefined && body.examples === undefined)
        body.example = REQUEST_EXAMPLES[ref];
      if (body && ref && content?.['application/x-www-form-urlencoded'] === body) emptyFormFields(document, ref);
    }
  }
  const declared = new Set((document.tags ?? []).map((t) => t.name));
  document.tags = [
    ...(document.tags ?? []),
    ...[...used]
      .filter((t) => !declared.has(t))
      .sort()
      .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name.replace(/_/g, ' ')}.` })),
  ];
  walkSchemas([document.components, document.paths], (schema) => {
    const props = schema.properties as Record<string, Json>;
    if (Array.isArray(schema.required)) {
      const required = (schema.required as string[]).filter((name) => props[name]?.default === undefined);
      if (required.length) schema.required = required;
      else delete schema.required;
    }
  });
  return document;
}
