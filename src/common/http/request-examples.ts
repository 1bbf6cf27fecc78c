import { EXAMPLE_ID } from './examples.js';

/**
 * The example request body Swagger UI fills in ("Try it out") and the reference shows, by the
 * body's schema name: realistic Thai data (Thai names, THB amounts in satang, PromptPay).
 * openapi-polish.ts puts each on its operation; a body missing here falls back to the
 * per-field examples of its DTO, and a body whose controller declares named `examples` (the
 * dispute bodies) keeps those. Add a line when you add a create endpoint.
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
  CancelPaymentIntentDto: { cancellation_reason: 'requested_by_customer' },
  ConfirmCheckoutDto: { payment_method_type: 'promptpay' },
  CreateAccountDto: {
    name: 'บ้านสมชาย',
    business_name: 'บริษัท บ้านสมชาย จำกัด',
    email: 'finance@baansomchai.co.th',
    country: 'TH',
    default_currency: 'THB',
    metadata: { crm_id: 'TH-2001' },
    labels: ['marketplace'],
  },
  CreateBankAccountIntentDto: {
    account: EXAMPLE_ID,
    return_url: 'https://partner.example.co.th/payouts/done',
    refresh_url: 'https://partner.example.co.th/payouts/new-link',
    metadata: { payee: 'TH-2001' },
  },
  CreateInvoiceDto: {
    customer_id: EXAMPLE_ID,
    currency: 'THB',
    line_items: [
      { description: 'ค่าที่ปรึกษา (ชั่วโมง)', amount: 50000, quantity: 2 },
      { description: 'ส่วนลดสมาชิก', amount: -5000 },
    ],
    payment_method_types: ['promptpay', 'card'],
    metadata: { order_id: 'INV-2026-1101' },
  },
  CreatePaymentLinkDto: {
    target_type: 'payment_intent',
    target_id: EXAMPLE_ID,
    success_url: 'https://shop.example.co.th/thanks',
    cancel_url: 'https://shop.example.co.th/cart',
    metadata: { campaign: 'loy-krathong' },
  },
  CreatePayoutDto: {
    amount: 50000,
    currency: 'THB',
    destination: EXAMPLE_ID,
    metadata: { batch: '2026-11' },
  },
  CreateRefundDto: {
    charge_id: EXAMPLE_ID,
    amount: 5000,
    reason: 'requested_by_customer',
    metadata: { ticket: 'CS-1042' },
  },
  CreateWebhookEndpointDto: {
    url: 'https://shop.example.co.th/webhooks/wallet',
    enabled_events: ['checkout.completed', 'charge.succeeded', 'charge.refunded'],
    metadata: { team: 'orders' },
  },
  MeterEventBatchDto: {
    events: [
      { event_name: 'api_call', customer_id: EXAMPLE_ID, identifier: 'req_8f2c-002', payload: { api_calls: '10' } },
      { event_name: 'api_call', customer_id: EXAMPLE_ID, identifier: 'req_8f2c-003', payload: { api_calls: '15' } },
    ],
  },
  PayoutScheduleInputDto: {
    account: EXAMPLE_ID,
    interval: 'weekly',
    weekly_anchor: 'friday',
    destination: EXAMPLE_ID,
    currency: 'THB',
    minimum_amount: 10000,
  },
  RejectAccountDto: { reason: 'documents_unreadable' },
  ResendEventDto: { webhook_endpoint_id: EXAMPLE_ID },
  // A form body (application/x-www-form-urlencoded): only the fields of one grant, so Try it out
  // sends no placeholder `code`/`client_secret` next to them (a public client with a secret is E1221).
  TokenRequestDto: {
    grant_type: 'refresh_token',
    refresh_token: 'wrt_Qm9vdHN0cmFwUmVmcmVzaFRva2VuRXhhbXBsZTAx',
    client_id: 'client_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b',
  },
  UpdateWebhookEndpointDto: { enabled_events: ['*'], disabled: false, metadata: { team: 'finance' } },
};
