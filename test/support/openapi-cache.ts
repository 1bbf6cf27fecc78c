import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModulesContainer } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApi } from '../../src/app.factory.js';

/**
 * The OpenAPI document for a test app: built by the first app of the run with a given set of
 * controllers, read back by every later one (every test file starts its own app, in a fresh module
 * registry, and building the document was about 1.3 s of the ~2 s start). The document depends only
 * on the code, which does not change during a run, and on which controllers the app has (the key).
 * The directory is the run's (WALLET_TEST_OPENAPI_DIR, made by the global setup); without it, built.
 */
export function cachedOpenApi(app: NestExpressApplication): OpenAPIObject {
  const dir = process.env.WALLET_TEST_OPENAPI_DIR;
  if (!dir) return buildOpenApi(app);
  const controllers: string[] = [];
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) controllers.push(`${module.name}.${wrapper.name}`);
  const key = createHash('sha256').update(controllers.sort().join('\n')).digest('hex').slice(0, 16);
  const file = join(dir, `${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject;
  } catch {
    // Not built yet in this run.
  }
  const document = buildOpenApi(app);
  // Written whole then renamed: the other worker may read it at any moment.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(document));
  renameSync(partial, file);
  return document;
}
