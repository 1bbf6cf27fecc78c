export { InvoiceCollectionModule } from './invoice-collection.module.js';
export { InvoiceCollectionJob } from './invoice-collection.job.js';
