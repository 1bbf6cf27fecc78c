import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { Event } from './entities/event.entity.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { EventsController } from './events.controller.js';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';
import { WebhookDeliveryJob } from './webhook-delivery.job.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsTestHelpersController } from './webhook-endpoints-test-helpers.controller.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhooksRepository } from './webhooks.repository.js';

/**
 * The event log and webhook delivery. Global, and it imports no feature module: every module
 * (the ledger too) records events through the kernel's `EventRecorder` port, which this module
 * implements with EventsService.
 */
@Global()
@Module({
  imports: [...DatabaseModule.forModeEntities([Event, WebhookEndpoint, WebhookDelivery, WebhookAttempt])],
  controllers: [EventsController, WebhookEndpointsController, WebhookEndpointsTestHelpersController],
  providers: [
    EventsRepository,
    WebhooksRepository,
    EventsService,
    { provide: EventRecorder, useExisting: EventsService },
    WebhookEndpointsService,
    WebhookDeliveryJob,
    WebhookMetrics,
  ],
  exports: [EventRecorder, EventsService, WebhookDeliveryJob],
})
export class EventsModule {}
