import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { ApplicationResolver } from '../../common/tenancy/application-resolver.js';
import { ApplicationHooks } from './application-hooks.js';
import { ApplicationsRepository } from './applications.repository.js';
import { ApplicationsService } from './applications.service.js';
import { ApiKey } from './entities/api-key.entity.js';
import { ApiKeysRepository } from './keys/api-keys.repository.js';
import { ApiKeysService } from './keys/api-keys.service.js';
import { RestrictedKeysController } from './keys/restricted-keys.controller.js';
import { Application } from './entities/application.entity.js';

@Global()
@Module({
  imports: [DatabaseModule.forPlatformEntities([Application, ApiKey])],
  controllers: [RestrictedKeysController],
  providers: [
    ApplicationsRepository,
    ApiKeysRepository,
    ApiKeysService,
    ApplicationsService,
    ApplicationHooks,
    { provide: ApplicationResolver, useExisting: ApplicationsService },
  ],
  exports: [ApplicationsService, ApiKeysService, ApplicationHooks, ApplicationResolver],
})
export class ApplicationsModule {}
