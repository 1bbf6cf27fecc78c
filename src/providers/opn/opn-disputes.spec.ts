import { toProviderDispute, type OpnDispute } from './opn-disputes.js';

const dispute = (patch: Partial<OpnDispute> = {}): OpnDispute => ({
  object: 'dispute',
  id: 'dspt_test_1',
  amount: 100000,
  currency: 'thb',
  status: 'open',
  charge: 'chrg_test_1',
  reason_code: 'goods_or_services_not_provided',
  message: null,
  documents: { data: [] },
  created_at: '2026-11-20T10:00:00Z',
  ...patch,
});

describe('Opn dispute → ProviderDispute', () => {
  it('maps an open dispute: funds withdrawn, no fee and no due date reported', () => {
    expect(toProviderDispute(dispute())).toEqual({
      reference: 'dspt_test_1',
      charge_reference: 'chrg_test_1',
      status: 'needs_response',
      amount: 100000,
      currency: 'THB',
      reason: 'product_not_received',
      network_reason_code: null,
      due_by: null,
      funds_withdrawn: true,
      fee: null,
      submission_count: 0,
      has_evidence: false,
      created_at: new Date('2026-11-20T10:00:00Z'),
    });
  });

  it('pending with a response is one submission under review; closed (accepted) is lost', () => {
    expect(toProviderDispute(dispute({ status: 'pending', message: 'see receipt' }))).toMatchObject({
      status: 'under_review',
      submission_count: 1,
      has_evidence: true,
    });
    expect(toProviderDispute(dispute({ status: 'closed' })).status).toBe('lost');
    expect(toProviderDispute(dispute({ reason_code: 'fraudulent_transaction' })).reason).toBe('fraudulent');
  });
});
