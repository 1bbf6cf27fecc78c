export { ProviderEventsModule } from './provider-events.module.js';
export { ProviderEventsService, type ProviderWebhookReceipt } from './provider-events.service.js';
export { ProviderReconciliationJob, type ReconciliationRun } from './provider-reconciliation.job.js';
export { ProviderEventErrors } from './provider-events.errors.js';
