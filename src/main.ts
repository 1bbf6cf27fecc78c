import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { ConfigError, loadAppConfig } from './config/app.config.js';
import { ensureDemoApplication } from './first-run.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadAppConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await createApp();
  await app.listen(config.port, config.host);
  const logger = new Logger('Main');
  const base = config.publicUrl;
  if (!config.databaseUrl) await ensureDemoApplication(app, config, logger);
  logger.log(
    `wallet service listening on ${base} (API: ${base}/api/v1/{app}/platform/wallet, Swagger UI: ${base}/docs)`,
  );
}

void main();
