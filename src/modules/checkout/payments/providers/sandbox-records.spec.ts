import { SandboxCollectionProvider } from './sandbox-collection.provider.js';

const request = (chargeId: string) => ({
  applicationId: '01936f6a-0000-7000-8000-0000000000aa',
  chargeId,
  amount: 10000,
  currency: 'THB',
  scalingFactor: 100,
  livemode: false,
});

describe('sandbox records: a charge id is charged once and read back by it', () => {
  it('answers the same payment to a second call with the same charge id, and reads it back', async () => {
    const sandbox = new SandboxCollectionProvider();
    expect(await sandbox.paymentByChargeId('charge-1')).toBeNull();
    const first = await sandbox.chargeCard(request('charge-1'), 'tok_x');
    expect(first.status).toBe('succeeded');
    expect(await sandbox.chargeCard(request('charge-1'), 'tok_x')).toEqual(first);
    expect(await sandbox.paymentByChargeId('charge-1')).toEqual(first);
    expect((await sandbox.chargeCard(request('charge-2'), 'tok_x')).reference).not.toBe(first.reference);
  });

  it('records nothing for a call held and failed as an unreachable provider would', async () => {
    const sandbox = new SandboxCollectionProvider();
    const gate = sandbox.hold('01936f6a-0000-7000-8000-0000000000aa');
    const call = sandbox.chargeCard(request('charge-3'), 'tok_x');
    gate.fail('connection refused');
    await expect(call).rejects.toThrow('connection refused');
    expect(await sandbox.paymentByChargeId('charge-3')).toBeNull();
  });
});
