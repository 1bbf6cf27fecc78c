import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { Draining } from './common/lifecycle/draining.js';
import { shutdownTracing } from './common/observability/trace-context.js';
import { disableAllocationSitePretenuring } from './common/runtime/gc-tuning.js';
import { ConfigError, loadAppConfig } from './config/app.config.js';
import { ensureDemoApplication } from './first-run.js';

/** Past the grace period, pools and jobs get this long to close before the process gives up on them. */
const CLOSE_MARGIN_MS = 3_000;

async function main(): Promise<void> {
  disableAllocationSitePretenuring();
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
  const logger = new Logger('Main');
  const draining = app.get(Draining);
  // SIGTERM/SIGINT: readiness turns 503 at once, then app.close() runs Nest's shutdown hooks:
  // HttpDrain (beforeApplicationShutdown) keeps the listener open for SHUTDOWN_LISTEN_MS and drains
  // HTTP within SHUTDOWN_GRACE_MS, the background jobs finish their current batch, the pools close
  // (onApplicationShutdown). Then one line and exit 0.
  // (Nest's enableShutdownHooks() would re-raise the signal, exit 143, before that line.)
  const shutdown = (signal: NodeJS.Signals) => {
    if (draining.active) return;
    draining.markDraining();
    logger.log(`${signal}: draining (grace ${config.shutdownGraceMs} ms)`);
    setTimeout(() => {
      logger.error(`shutdown did not finish within ${config.shutdownGraceMs + CLOSE_MARGIN_MS} ms; exiting`);
      process.exit(1);
    }, config.shutdownGraceMs + CLOSE_MARGIN_MS).unref();
    app
      .close()
      .then(() => shutdownTracing())
      .then(
        () => {
          logger.log(draining.summary());
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await app.listen(config.port, config.host);
  const base = config.publicUrl;
  if (!config.databaseUrl) await ensureDemoApplication(app, config, logger);
  logger.log(
    `wallet service listening on ${base} (API: ${base}/api/v1/{app}/platform/wallet, Swagger UI: ${base}/docs)`,
  );
}

void main();
