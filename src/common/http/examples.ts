/** Example values the OpenAPI document shows, the same in every module's DTOs. */
export const EXAMPLE_ID = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
export const EXAMPLE_TIME = '2026-11-22T16:30:30.583Z';

/** The schema of an embedded customer record (balances, charges, payment methods). */
export const EMBEDDED_CUSTOMER = {
  type: 'object',
  nullable: true,
  additionalProperties: true,
  description: 'The customer record, or null.',
} as const;
