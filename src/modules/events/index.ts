export { EventsModule } from './events.module.js';
export { EventsService } from './events.service.js';
export { newWebhookSecret } from './webhook-endpoints.service.js';
export { DELIVERY_LEASE_MS, DELIVERY_POLL_MS, WebhookDeliveryJob } from './webhook-delivery.job.js';
export { EventErrors } from './events.errors.js';
export { RETRY_WINDOW_MS, maxRetryDelayMs } from './retry-schedule.js';
