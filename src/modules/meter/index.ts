export { MeterModule } from './meter.module.js';
export { MeterEventForwardingJob } from './meter-event-forwarding.job.js';
export { SandboxBillingProvider } from './providers/sandbox-billing.provider.js';
export { MeterEventDto } from './dto/meter-event.dto.js';
export { MetersService } from './meters.service.js';
export { CreditGate, type CreditDecision, type CreditedEvent, type CreditReserver } from './credit-gate.js';
export { MeterUsageService, type LineUsage, type BilledEventRow, type UsageClaim } from './meter-usage.service.js';
export type { Meter, MeterAggregation } from './entities/meter.entity.js';
export {
  MeterUsageReports,
  type UsageReportRow,
  type UsageReportWindow,
} from './reports/meter-usage-reports.service.js';
