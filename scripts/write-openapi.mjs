#!/usr/bin/env node
/**
 * Writes the OpenAPI document (what GET /docs-json serves) without a listening server: boots the
 * app factory on the embedded in-memory database, builds the document, closes the app.
 * Usage: node scripts/write-openapi.mjs [out.json]   (after `npm run build`; default dist/openapi.json)
 */
import { writeFileSync } from 'node:fs';

process.env.DATA_DIR ??= 'memory://openapi';
delete process.env.DATABASE_URL;
process.env.LOG_LEVEL ??= 'error';
const out = process.argv[2] ?? 'dist/openapi.json';
const { createApp, buildOpenApi } = await import('../dist/src/app.factory.js');
const app = await createApp();
writeFileSync(out, JSON.stringify(buildOpenApi(app), null, 2) + '\n');
await app.close();
console.log(`OpenAPI document written to ${out}`);
