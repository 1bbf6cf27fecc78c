#!/usr/bin/env node
/**
 * Which tables would not distribute by application as they are (docs/SCALING.md, "Past one primary:
 * Citus"). Citus shards a distributed table by one column (here `application_id`) and can enforce
 * only what one shard can check alone, so a table of a mode schema (`wallet_test`; `wallet_live` is
 * the same) distributes as it is when:
 *
 * - it has an `application_id` column;
 * - its primary key and every unique constraint or unique index include `application_id`;
 * - every foreign key includes `application_id` on both sides (co-located rows), or points at a
 *   reference table (REFERENCE_TABLES below: copied whole to every node).
 *
 * `distributionProblems(query)` lists what stops each table. `test/e2e/platform/distribution`
 * compares that with `scripts/distribution-known.json`, the tables recorded as not distributable
 * when this check came in, each with its problems: a new table, or a new key on an old one, must be
 * distributable (or be declared a reference table here with its reason); a problem fixed must leave
 * the list too, so the list only shrinks.
 *
 * Usage: DATABASE_URL=<a migrated database> node scripts/check-distribution.mjs (prints the report;
 * exits 1 when it differs from the recorded list).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Tables that Citus would copy to every node instead of sharding, with why. None in the mode schemas yet. */
export const REFERENCE_TABLES = {};

const SCHEMA = 'wallet_test';

/** Every table of the mode schema with what stops it distributing by `application_id` ([] when nothing). */
export async function distributionProblems(query) {
  const tables = await query(
    `SELECT c.relname AS table,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'application_id' AND NOT a.attisdropped) AS has_app
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = '${SCHEMA}' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`,
  );
  // Keys: primary keys, unique constraints, and unique indexes not behind a constraint.
  const keys = await query(
    `SELECT c.relname AS table, CASE WHEN i.indisprimary THEN 'primary key' ELSE 'unique' END AS kind,
            ic.relname AS name,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(i.indkey) WITH ORDINALITY k(n, ord)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n) AS columns
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = '${SCHEMA}' AND i.indisunique`,
  );
  const foreign = await query(
    `SELECT c.relname AS table, f.relname AS target, con.conname AS name,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(n, ord)
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n) AS columns,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(n, ord)
               JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n) AS target_columns,
            fn.nspname AS target_schema
       FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_class f ON f.oid = con.confrelid JOIN pg_namespace fn ON fn.oid = f.relnamespace
      WHERE n.nspname = '${SCHEMA}' AND con.contype = 'f'`,
  );
  const hasApp = (columns) =>
    String(columns ?? '')
      .split(',')
      .includes('application_id');
  const report = {};
  for (const t of tables) {
    if (t.table in REFERENCE_TABLES) continue;
    const problems = [];
    if (!t.has_app) problems.push('no application_id column');
    for (const k of keys.filter((k) => k.table === t.table).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!hasApp(k.columns)) problems.push(`${k.kind} ${k.name} (${k.columns}) lacks application_id`);
    }
    for (const f of foreign.filter((f) => f.table === t.table).sort((a, b) => a.name.localeCompare(b.name))) {
      const toReference = f.target_schema === SCHEMA && f.target in REFERENCE_TABLES;
      if (f.target_schema !== SCHEMA)
        problems.push(`foreign key ${f.name} -> ${f.target_schema}.${f.target} leaves the mode schema`);
      else if (!toReference && !(hasApp(f.columns) && hasApp(f.target_columns)))
        problems.push(`foreign key ${f.name} (${f.columns}) -> ${f.target} (${f.target_columns}) lacks application_id`);
    }
    report[t.table] = problems;
  }
  return report;
}

const KNOWN = join(dirname(fileURLToPath(import.meta.url)), 'distribution-known.json');

/** The recorded list: table -> its problems when the check came in (only tables with problems). */
export function knownProblems() {
  return JSON.parse(readFileSync(KNOWN, 'utf8')).tables;
}

/** Differences between `report` and the recorded list: new problems (a failure) and fixed ones (the list must drop them). */
export function compareWithKnown(report, known = knownProblems()) {
  const added = [];
  const fixed = [];
  for (const [table, problems] of Object.entries(report)) {
    const before = new Set(known[table] ?? []);
    for (const p of problems) if (!before.has(p)) added.push(`${table}: ${p}`);
  }
  for (const [table, problems] of Object.entries(known)) {
    const now = new Set(report[table] ?? []);
    for (const p of problems) if (!now.has(p)) fixed.push(`${table}: ${p}`);
  }
  return { added, fixed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const report = await distributionProblems(async (sql) => (await client.query(sql)).rows);
    const blocked = Object.entries(report).filter(([, p]) => p.length);
    console.log(
      `${Object.keys(report).length} tables in each mode schema: ${Object.keys(report).length - blocked.length} distribute by application_id as they are, ${blocked.length} do not:`,
    );
    for (const [table, problems] of blocked) console.log(`  ${table}\n    - ${problems.join('\n    - ')}`);
    if (process.argv.includes('--write')) {
      const { writeFileSync } = await import('node:fs');
      const tables = Object.fromEntries(blocked);
      writeFileSync(
        KNOWN,
        `${JSON.stringify({ note: 'scripts/check-distribution.mjs: tables of the mode schemas that would not distribute by application_id as they are; the list only shrinks', tables }, null, 2)}\n`,
      );
      console.log(`written ${KNOWN}`);
    } else {
      const { added, fixed } = compareWithKnown(report);
      for (const a of added) console.log(`NEW (not distributable): ${a}`);
      for (const f of fixed) console.log(`FIXED (drop it from scripts/distribution-known.json): ${f}`);
      if (added.length || fixed.length) process.exitCode = 1;
    }
  } finally {
    await client.end();
  }
}
