export { ApplicationsModule } from './applications.module.js';
export { ApplicationsService, type CreatedApplication } from './applications.service.js';
export { ApiKeysService, MAX_EXPIRE_OLD_SECONDS, type VerifiedKey } from './keys/api-keys.service.js';
export { ApplicationHooks } from './application-hooks.js';
