import { AUDITED_ROUTES, auditKeyOf } from '../../../src/common/audit/audited-routes.js';
import { OpenApiContract } from '../../support/openapi.js';
import { startApp, type TestApp } from '../../support/harness.js';
import { ENDPOINTS, EXEMPT, documentedOperation } from '../../factories/matrix/endpoints.js';

/**
 * The credential matrix claims every endpoint: this fence holds it to the OpenAPI document (what
 * /docs-json serves), so a new route cannot ship without saying what each credential kind gets.
 */
describe('credential matrix fence', () => {
  let t: TestApp;
  let documented: string[];
  const covered = new Set(ENDPOINTS.map(documentedOperation));

  beforeAll(async () => {
    t = await startApp();
    documented = (await OpenApiContract.load(t)).operations();
  });
  afterAll(() => t.close());

  it('has a row, or an exemption with its reason, for every documented operation', () => {
    const missing = documented.filter((op) => !covered.has(op) && !(op in EXEMPT));
    expect({ 'operations without a matrix row': missing }).toEqual({ 'operations without a matrix row': [] });
  });

  it('names only documented operations in its rows and exemptions', () => {
    const known = new Set(documented);
    const stale = [...covered, ...Object.keys(EXEMPT)].filter((op) => !known.has(op));
    expect({ 'rows or exemptions for no documented operation': stale }).toEqual({
      'rows or exemptions for no documented operation': [],
    });
  });

  it('exempts no operation that has a row', () => {
    expect(Object.keys(EXEMPT).filter((op) => covered.has(op))).toEqual([]);
  });

  // The same fence for the audit table (docs/AUDIT.md): the Swagger UI walk checks each entry's rows.
  it('has an audit entry (its rows, or why none) for every documented state-changing operation, and no other', () => {
    const writes = documented.filter((op) => !op.startsWith('GET '));
    const keys = new Set(writes.map((op) => auditKeyOf(...(op.split(' ') as [string, string]))));
    expect({
      'writes without an audit entry': writes.filter(
        (op) => !(auditKeyOf(...(op.split(' ') as [string, string])) in AUDITED_ROUTES),
      ),
      'audit entries for no documented write': Object.keys(AUDITED_ROUTES).filter((key) => !keys.has(key)),
    }).toEqual({ 'writes without an audit entry': [], 'audit entries for no documented write': [] });
  });
});
