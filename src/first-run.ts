import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication, LoggerService } from '@nestjs/common';
import type { AppConfig } from './config/app.config.js';
import { ApplicationsService } from './modules/applications/index.js';

/**
 * First run on the embedded database: a `demo` application (country TH) whose keys are written to
 * a file only the owner can read, so a newcomer can call the API at once.
 */
export async function ensureDemoApplication(
  app: INestApplication,
  config: AppConfig,
  logger: LoggerService,
): Promise<void> {
  const applications = app.get(ApplicationsService);
  const keysFile = config.dataDir.startsWith('memory://') ? undefined : join(config.dataDir, 'demo-keys.json');
  const base = `${config.publicUrl}/api/v1/demo/platform/wallet`;
  if (await applications.bySlug('demo')) {
    if (keysFile && existsSync(keysFile)) {
      logger.log(`demo application keys: ${keysFile}`);
      console.log(`  Try:        ${tryCurl(keysFile, base)}`);
    }
    return;
  }
  const created = await applications.create({ slug: 'demo', name: 'Demo', countries: ['TH'] });
  const lines = [
    'First run: created the demo application (slug "demo", country TH).',
    `  API base:   ${base}`,
    `  Swagger UI: ${config.publicUrl}/docs`,
  ];
  if (keysFile) {
    writeFileSync(keysFile, JSON.stringify({ app: 'demo', keys: created.keys }, null, 2) + '\n', { mode: 0o600 });
    lines.push(`  Keys:       ${keysFile} (readable by you only)`);
    lines.push(`  Try:        ${tryCurl(keysFile, base)}`);
  }
  console.log(lines.join('\n'));
}

/** A first real call (a customer in test mode, in Thailand) with the demo application's test key. */
export function tryCurl(keysFile: string, base: string): string {
  return (
    `curl -u "$(node -p "require('${keysFile}').keys.test"):" -H 'X-Test-Mode: true' -H 'X-Country: TH' ` +
    `-H 'Content-Type: application/json' -d '{"name":"Somchai Jaidee"}' ${base}/customers`
  );
}
