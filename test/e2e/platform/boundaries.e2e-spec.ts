import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = process.cwd();
const FIXTURES = join(ROOT, 'test', 'fixtures', 'boundaries');

/** The project's own dependency-cruiser config, run on a tree, answering the rule names it reports. */
function depcruiseRules(cwd: string): string[] {
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      'src',
      '--config',
      join(ROOT, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
    ],
    { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(run.stdout) as { summary: { violations: Array<{ rule: { name: string } }> } };
  return report.summary.violations.map((v) => v.rule.name);
}

function tableCheck(root: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'check-table-owners.mjs'), root], {
    encoding: 'utf8',
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('module boundaries (npm run lint)', () => {
  it('fires ledger-is-a-sink and only-repositories-touch-the-database on the fixtures that break them', () => {
    const rules = depcruiseRules(FIXTURES);
    expect(rules).toEqual(expect.arrayContaining(['ledger-is-a-sink', 'only-repositories-touch-the-database']));
  });

  it('fires each checkout layering rule and controllers-inject-no-repositories once on the fixtures', () => {
    const rules = depcruiseRules(FIXTURES);
    const once = [
      'checkout-targets-import-no-sub-room',
      'checkout-checkouts-import-targets-services-only',
      'checkout-payments-use-services-not-repositories',
      'checkout-hosted-is-the-top',
      'controllers-inject-no-repositories',
    ];
    for (const rule of once)
      expect({ rule, fired: rules.filter((r) => r === rule).length }).toEqual({ rule, fired: 1 });
  });

  it('fires providers-are-a-plug when an adapter imports a feature module', () => {
    expect(depcruiseRules(FIXTURES)).toContain('providers-are-a-plug');
  });

  it('fires module-reads-another-modules-table when a module names another module’s table', () => {
    const { status, output } = tableCheck(FIXTURES);
    expect(status).toBe(1);
    expect(output).toContain('module "customers" names table "charges" of module "checkout"');
  });

  it('refuses SQL and query builders in a file that is not a repository', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const code = [
      "import type { EntityManager } from 'typeorm';",
      'export async function total(manager: EntityManager): Promise<unknown> {',
      "  await manager.getRepository('charges').count();",
      "  return manager.query('SELECT count(*) FROM charges');",
      '}',
      '',
    ].join('\n');
    const inService = await eslint.lintText(code, { filePath: join(ROOT, 'src/modules/customers/probe.service.ts') });
    expect(inService[0].messages.map((m) => m.message)).toEqual([
      expect.stringContaining('belong in a *.repository.ts'),
      expect.stringContaining('SQL belongs in a *.repository.ts'),
    ]);
    const inRepository = await eslint.lintText(code, {
      filePath: join(ROOT, 'src/modules/customers/probe.repository.ts'),
    });
    expect(inRepository[0].messages).toEqual([]);
  });

  it('finds no violation in the service itself', () => {
    expect(depcruiseRules(ROOT)).toEqual([]);
    expect(tableCheck(ROOT).status).toBe(0);
  });
});
