#!/usr/bin/env node
/**
 * `npm run lint` step: a feature module reads and writes only its own tables. A table's owner is the
 * module whose entity declares it (`@Entity({ name: 'x' })`), or, for tables no entity maps (outboxes,
 * queues, the sandbox providers' tables), the module this file names below. Every table a module's
 * code names (`db.table('x')`, a repository or query builder by table name, or SQL `FROM/JOIN/INTO/
 * UPDATE <schema>.x`) must be its own; another module's data is reached through that module's index.
 * Usage: node scripts/check-table-owners.mjs [root] (default: the current directory).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const RULE = 'module-reads-another-modules-table';

/** Tables no entity maps, by owning module. */
const TABLES_WITHOUT_ENTITY = {
  meter: [
    'meter_events',
    'meter_event_outbox',
    'meter_event_billings',
    'billing_sandbox_customers',
    'billing_sandbox_events',
    'billing_sandbox_settings',
  ],
  auth: ['oauth_token_families'],
  audit: ['audit_chain_heads', 'audit_checkpoints'],
  billing: ['credit_usage', 'credit_usage_buckets'],
  ledger: ['hold_releases', 'pending_legs', 'balance_statements', 'statement_signing_keys'],
  files: ['file_content_parts'],
  'provider-events': ['provider_events'],
  reconciliation: ['reconciliation_lines'],
  payouts: ['transfer_sandbox_recipients', 'transfer_sandbox_settings', 'transfer_sandbox_transfers'],
};

const REFERENCES = [
  /\btable\(\s*'([a-z_][a-z0-9_]*)'\s*\)/g,
  /\b(?:repository|getRepository)(?:<[^>]*>)?\(\s*'([a-z_][a-z0-9_]*)'/g,
  /\b(?:FROM|JOIN|INTO|UPDATE)\s+"?(?:wallet_test|wallet_live|platform)"?\."?([a-z_][a-z0-9_]*)/g,
];
const ENTITY = /@Entity\(\s*\{[^}]*\bname:\s*'([a-z_][a-z0-9_]*)'/g;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) out.push(path);
  }
  return out;
}

export function checkTableOwners(root) {
  const modulesDir = join(root, 'src', 'modules');
  const sources = files(modulesDir).map((path) => ({
    path,
    module: relative(modulesDir, path).split(sep)[0],
    text: readFileSync(path, 'utf8'),
  }));
  const owners = new Map();
  for (const [module, tables] of Object.entries(TABLES_WITHOUT_ENTITY)) for (const t of tables) owners.set(t, module);
  for (const { module, text } of sources) for (const m of text.matchAll(ENTITY)) owners.set(m[1], module);

  const violations = [];
  for (const { path, module, text } of sources) {
    for (const pattern of REFERENCES) {
      for (const m of text.matchAll(pattern)) {
        const table = m[1];
        const owner = owners.get(table);
        const line = text.slice(0, m.index).split('\n').length;
        const where = `${relative(root, path)}:${line}`;
        if (!owner)
          violations.push(`${where}: table "${table}" has no owner (map it with an entity or in ${RULE}'s list)`);
        else if (owner !== module)
          violations.push(`${where}: module "${module}" names table "${table}" of module "${owner}"`);
      }
    }
  }
  return violations;
}

const invoked = process.argv[1] && import.meta.url.endsWith(process.argv[1].split(sep).pop());
if (invoked) {
  const violations = checkTableOwners(process.argv[2] ?? process.cwd());
  for (const v of violations) console.error(`  error ${RULE}: ${v}`);
  if (violations.length) {
    console.error(`x ${violations.length} table ownership violation(s)`);
    process.exit(1);
  }
  console.log('✔ every module names only its own tables');
}
