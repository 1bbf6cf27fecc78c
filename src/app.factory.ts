import { keepRawBody } from './common/http/raw-body.js';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import express from 'express';
import type { Request } from 'express';
import { ClsService } from 'nestjs-cls';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { declarePassportRequestFields } from './common/auth/passport-request-fields.js';
import { requestContextMiddleware } from './common/context/request-store.js';
import { answerClientErrors } from './common/http/client-error.js';
import { etagOnlyForReads } from './common/http/etag.js';
import { keepConnectionsOpen } from './common/http/keep-alive.js';
import { cardDataGuardMiddleware, VAULT_PATH } from './common/http/card-data.js';
import { contentTypeMiddleware } from './common/http/content-type.js';
import { polishOpenApi } from './common/http/openapi-polish.js';
import { requestIdMiddleware } from './common/http/request-id.js';
import { requestGuardMiddleware } from './common/http/validation.js';
import { accessLogMiddleware, logsEachRequest } from './common/observability/access-log.js';
import { Metrics, metricsMiddleware } from './common/observability/metrics.js';
import { loadAppConfig } from './config/app.config.js';
import { describeEventPayloads, EVENT_PAYLOADS } from './event-payloads.js';

export function buildOpenApi(app: INestApplication) {
  const config = new DocumentBuilder()
    .setTitle('Wallet Payments Service')
    .setDescription(
      'Multi-application, multi-country payment wallet API. Every wallet path is relative to `/api/v1/{app}/platform/wallet`. ' +
        'Errors are the flat error object `{object, code, key, i18n_key, message, param?, doc_url, request_id}`: `param` names the one parameter at fault (`amount`, `line_items[0].price`), `doc_url` is the public page of the code (`GET /errors/{code}`); `GET /errors/catalog` lists every code.',
    )
    .setVersion('1')
    .setLicense('Proprietary', '')
    .addServer('/', 'This service')
    .addBasicAuth(
      {
        type: 'http',
        scheme: 'basic',
        description: 'Secret key as the username, empty password: `base64(<SECRET_KEY>:)`. Privilege `machine`.',
      },
      'secret_key',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'OAuth 2.0 access token. Privilege `user` or `superuser`.' },
      'bearer',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Session-Token',
        description: 'One-time session from a hosted flow. Privilege `none`.',
      },
      'session',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [...new Set(Object.values(EVENT_PAYLOADS))],
  });
  describeEventPayloads(document);
  for (const [path, item] of Object.entries(document.paths)) {
    // Every wallet path carries {app}: declare it wherever a controller did not.
    if (path.includes('{app}')) {
      for (const op of [item.get, item.post, item.put, item.patch, item.delete]) {
        if (op && !op.parameters?.some((p) => 'name' in p && p.name === 'app' && p.in === 'path')) {
          op.parameters = [
            {
              name: 'app',
              in: 'path',
              required: true,
              description: 'The application slug.',
              schema: { type: 'string' },
            },
            ...(op.parameters ?? []),
          ];
        }
      }
    }
    // The vault's body is card data: never fingerprinted or kept for a replay (see IdempotencyGuard).
    if (!item.post || !path.startsWith('/api/v1/') || VAULT_PATH.test(path)) continue;
    item.post.parameters = [
      ...(item.post.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes the POST safe to retry: a repeat within 24 h replays the first response; the same key with another body is E2006.',
        schema: { type: 'string', maxLength: 255 },
      },
    ];
  }
  return polishOpenApi(document);
}

export interface CreateAppOptions {
  /**
   * Builds the OpenAPI document /docs and /docs-json serve; `buildOpenApi` when not given. The test
   * harness passes one that reuses the document an earlier app of the same test run built (the
   * document depends only on the code, and building it is most of an app's start).
   */
  openApi?: (app: NestExpressApplication) => OpenAPIObject;
}

/** Everything main.ts and the tests share, so tests run exactly the production pipeline. */
export async function createApp(options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  const config = loadAppConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bodyParser: false, bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.set('query parser', 'simple');
  declarePassportRequestFields((app.getHttpAdapter().getInstance() as { request: Request }).request);
  // Only the configured proxies' X-Forwarded-For is believed: from any other peer the header is
  // the client's own words, and the throttles key on the address it names.
  app.set('trust proxy', config.trustedProxies.length > 0 ? config.trustedProxies : false);
  app.disable('x-powered-by');
  etagOnlyForReads(app);
  app.use(requestIdMiddleware);
  app.use(contentTypeMiddleware);
  app.use(
    express.json({
      limit: config.bodyLimitBytes,
      type: ['application/json', 'application/*+json'],
      verify: keepRawBody,
    }),
  );
  app.use(express.urlencoded({ limit: config.bodyLimitBytes, extended: false }));
  app.use(requestGuardMiddleware);
  app.use(cardDataGuardMiddleware);
  // The request context and the request timer: plain Express middleware, after the guards as the
  // module middleware they replace was (requestContextMiddleware says why they are not that).
  app.use(requestContextMiddleware(app.get(ClsService)));
  app.use(metricsMiddleware(app.get(Metrics)));
  answerClientErrors(app.getHttpServer(), config.publicUrl);
  keepConnectionsOpen(app.getHttpServer(), config.httpKeepAliveTimeoutMs);

  const document = (options.openApi ?? buildOpenApi)(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'Wallet Payments Service API',
    swaggerOptions: {
      // No Schemas section under the operations: each operation still shows its own request and
      // response schemas (its Schema tab), and /docs-json keeps components.schemas. The section is
      // every schema of the document, which Swagger UI renders with the page and re-renders on each click.
      defaultModelsExpandDepth: -1,
      // A "Filter by tag" box above the operations, so a partner (and the Try-it-out walk) can show
      // one resource's operations instead of all ~90 at once.
      filter: true,
      // Each operation opens ready to try: its parameters and body are editable at once, without a
      // "Try it out" click first (the button reads "Cancel" and turns the editing off).
      tryItOutEnabled: true,
    },
  });
  // At info and below, the access line (pino-http) and the request's logger binding: after the
  // Swagger UI's routes and before the application's (Nest registers those when the app starts),
  // where LoggerModule's module middleware ran.
  if (logsEachRequest(config.logLevel)) app.use(...accessLogMiddleware(app));
  return app;
}
