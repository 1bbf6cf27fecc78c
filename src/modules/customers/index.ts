export { CustomersModule } from './customers.module.js';
export { CustomersService, toCustomerResponse, type CustomerResponse } from './customers.service.js';
export type { Customer } from './entities/customer.entity.js';
export { CustomerHooks } from './customer-hooks.js';
