import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { CustomerHooks } from './customer-hooks.js';
import { CustomersController } from './customers.controller.js';
import { CustomersRepository } from './customers.repository.js';
import { CustomersService } from './customers.service.js';
import { Customer } from './entities/customer.entity.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([Customer])],
  controllers: [CustomersController],
  providers: [CustomersRepository, CustomersService, CustomerHooks],
  exports: [CustomersService, CustomerHooks],
})
export class CustomersModule {}
