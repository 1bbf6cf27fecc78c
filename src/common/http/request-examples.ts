import { EXAMPLE_ID } from './examples.js';

/**
 * The example request body Swagger UI fills in ("Try it out") and the reference shows, by the
 * body's schema name: realistic Thai data (Thai names, THB amounts in satang, PromptPay).
 * openapi-polish.ts puts each on its operation; a body missing here falls back to the
 * per-field examples of its DTO. Add a line when you add a create endpoint.
 */
export const REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = {
  CreateCustomerDto: {
    name: 'สมชาย ใจดี',
    email: 'somchai@example.co.th',
    currency: 'THB',
    address: { line1: '999/9 ถนนพระราม 1', city: 'กรุงเทพมหานคร', postal_code: '10330', country: 'TH' },
    metadata: { crm_id: 'TH-1001' },
  },
  CreateMeterDto: {
    display_name: 'การเรียก API',
    event_name: 'api_call',
    value_settings: { event_payload_key: 'api_calls' },
  },
  CreateMeterEventDto: {
    event_name: 'api_call',
    customer_id: EXAMPLE_ID,
    identifier: 'req_8f2c-001',
    payload: { api_calls: '25' },
  },
  CreatePaymentIntentDto: {
    amount: 125000,
    currency: 'THB',
    customer_id: EXAMPLE_ID,
    description: 'ค่าบริการรายเดือน พฤศจิกายน',
    payment_method_types: ['promptpay'],
    metadata: { order_id: 'ORD-2026-1101' },
  },
  CreateCheckoutDto: {
    target_type: 'payment_intent',
    target_id: EXAMPLE_ID,
    success_url: 'https://shop.example.co.th/thanks',
    cancel_url: 'https://shop.example.co.th/cart',
  },
  CreateBankAccountDto: {
    account: EXAMPLE_ID,
    type: 'promptpay_phone',
    account_holder_name: 'สมหญิง รักไทย',
    phone_number: '0812345678',
  },
};
