export { ReportingModule } from './reporting.module.js';
export { ReportRunsService } from './report-runs.service.js';
export { ReportRunsJob } from './report-runs.job.js';
