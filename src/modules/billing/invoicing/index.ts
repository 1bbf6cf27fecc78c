export { InvoicingModule } from './invoicing.module.js';
export { InvoicingJob } from './invoicing.job.js';
export { BillingVerifyService, type VerifyReport, type Difference } from './billing-verify.service.js';
export { UpcomingInvoiceDto, InvoiceLineDto } from './dto/invoice-line.dto.js';
