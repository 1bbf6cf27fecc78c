export { ApplicationsModule } from './applications.module.js';
export { ApplicationsService, type CreatedApplication, type VerifiedKey } from './applications.service.js';
export { ApplicationHooks } from './application-hooks.js';
