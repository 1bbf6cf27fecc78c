import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { ApplicationResolver } from '../../common/tenancy/application-resolver.js';
import { ApplicationHooks } from './application-hooks.js';
import { ApplicationsRepository } from './applications.repository.js';
import { ApplicationsService } from './applications.service.js';
import { ApiKey } from './entities/api-key.entity.js';
import { Application } from './entities/application.entity.js';

@Global()
@Module({
  imports: [DatabaseModule.forPlatformEntities([Application, ApiKey])],
  providers: [
    ApplicationsRepository,
    ApplicationsService,
    ApplicationHooks,
    { provide: ApplicationResolver, useExisting: ApplicationsService },
  ],
  exports: [ApplicationsService, ApplicationHooks, ApplicationResolver],
})
export class ApplicationsModule {}
