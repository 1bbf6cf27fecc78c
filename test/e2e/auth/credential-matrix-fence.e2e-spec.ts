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
});
