import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { Membership } from './entities/membership.entity.js';
import { User } from './entities/user.entity.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';

/** Users, their memberships in applications, and superusers (platform schema). Managed with the CLI. */
@Module({
  imports: [DatabaseModule.forPlatformEntities([User, Membership])],
  providers: [UsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {}
