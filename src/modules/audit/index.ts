export { AuditModule } from './audit.module.js';
export { AuditService } from './audit.service.js';
export { AuditReader, AUDIT_EVENT_LIST } from './audit-reader.service.js';
export { AuditChainKeeper, type ChainVerification } from './audit-chain-keeper.js';
export { AuditBurstJob, AuditRetention } from './audit.jobs.js';
export { auditHash, replayAuditChain, PLATFORM_CHAIN, type ChainedAuditRow } from './audit-chain.js';
export { verifyCheckpoint, type CheckpointPayload } from './audit-checkpoint.js';
