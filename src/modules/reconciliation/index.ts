export { ReconciliationModule } from './reconciliation.module.js';
export { ReconciliationRunsService } from './reconciliation-runs.service.js';
export { ReconciliationRunsJob } from './reconciliation-runs.job.js';
export { ReconciliationRunDto } from './dto/reconciliation-run.dto.js';
