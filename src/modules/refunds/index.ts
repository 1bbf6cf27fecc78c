export { RefundsModule } from './refunds.module.js';
export { RefundsService } from './refunds.service.js';
export { RefundReconciliationJob } from './refund-reconciliation.job.js';
export { toRefundResponse, type RefundResponse } from './refunds.responses.js';
export { RefundErrors } from './refunds.errors.js';
export { RefundDto } from './dto/refund.dto.js';
export { providerRefundsSql } from './refund-settlements.sql.js';
