/** Stripe's upload purposes that fit this service. */
export const FILE_PURPOSES = [
  'account_requirement',
  'additional_verification',
  'business_icon',
  'business_logo',
  'customer_signature',
  'dispute_evidence',
  'identity_document',
  'tax_document_user_upload',
] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/** Purposes of files the service makes itself (Stripe's name for a report run's CSV); never uploadable. */
export const GENERATED_FILE_PURPOSES = ['finance_report_run'] as const;
export type GeneratedFilePurpose = (typeof GENERATED_FILE_PURPOSES)[number];

/** Purposes shown as images (as Stripe's): a PDF is refused for them. */
export const IMAGE_ONLY_PURPOSES: ReadonlySet<string> = new Set([
  'business_icon',
  'business_logo',
  'customer_signature',
]);

/** The largest file accepted, in bytes (10 MB). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
