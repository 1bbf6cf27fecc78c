export { InvoicingModule } from './invoicing.module.js';
export { InvoicingJob } from './invoicing.job.js';
export { BillingVerifyService, type VerifyReport, type Difference } from './billing-verify.service.js';
export { UpcomingInvoiceDto, InvoiceLineObjectDto } from './dto/invoice-line.dto.js';
