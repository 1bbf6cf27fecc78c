export { CustomersModule } from './customers.module.js';
export { CUSTOMER_REFERENCE_CHANNEL, CustomersService } from './customers.service.js';
export { toCustomerResponse, type CustomerResponse } from './customers.responses.js';
export type { Customer } from './entities/customer.entity.js';
export { CustomerHooks, type CustomerCreated, type DefaultPaymentMethodChosen } from './customer-hooks.js';
export { CustomerTestClocks } from './customer-test-clocks.js';
