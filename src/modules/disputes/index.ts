export { DisputesModule } from './disputes.module.js';
export { DisputesService } from './disputes.service.js';
export { toDisputeResponse, type DisputeResponse } from './disputes.responses.js';
export { DisputeErrors } from './disputes.errors.js';
export { ProviderDisputesService } from './provider-disputes.service.js';
