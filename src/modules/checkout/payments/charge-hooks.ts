import { Injectable } from '@nestjs/common';

export type SandboxDisputeListener = (chargeId: string) => Promise<void>;

/**
 * Reactions to charges by modules that checkout does not depend on. The disputes module registers
 * in its `onModuleInit` to open the dispute the sandbox's test card asks for right after a payment
 * succeeds, so checkout imports no disputes code. Listeners run in the paying request's context,
 * after its transaction committed.
 */
@Injectable()
export class ChargeHooks {
  private readonly sandboxDisputeListeners: SandboxDisputeListener[] = [];

  onSandboxDispute(listener: SandboxDisputeListener): void {
    this.sandboxDisputeListeners.push(listener);
  }

  async sandboxDisputeRequested(chargeId: string): Promise<void> {
    for (const listener of this.sandboxDisputeListeners) await listener(chargeId);
  }
}
