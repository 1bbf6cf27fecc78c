export { DisputesModule } from './disputes.module.js';
export { DisputesService, toDisputeResponse, type DisputeResponse } from './disputes.service.js';
export { DisputeErrors } from './disputes.errors.js';
