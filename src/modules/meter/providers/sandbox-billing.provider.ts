import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import {
  BillingProviderError,
  type BillingProvider,
  type ForwardedMeterEvent,
  type MeterEventOutcome,
} from '../../../providers/ports/billing.port.js';
import { SandboxBillingRepository, type SandboxReceivedEvent } from './sandbox-billing.repository.js';

const FAILING = 'sandbox billing provider is failing on purpose for this application';

/**
 * Test mode's way to see an event refused for good (docs/METERING.md): the sandbox never accepts an
 * event whose identifier starts with this, so the forwarder abandons it at its first attempt
 * (`meter_event.delivery_failed`), as a real provider's permanent refusal would be.
 */
export const SANDBOX_REFUSED_IDENTIFIER_PREFIX = 'sandbox_refuse_';
const REFUSED =
  'sandbox billing provider refuses for good an event whose identifier starts with ' +
  `"${SANDBOX_REFUSED_IDENTIFIER_PREFIX}"`;

/**
 * The built-in, deterministic billing provider. It keeps what it was sent in its own tables
 * (per mode), so tests and operators can see exactly what a provider received, and it can be
 * told to fail for an application to exercise retries.
 */
@Injectable()
export class SandboxBillingProvider implements BillingProvider {
  readonly name = 'sandbox';
  /** Serves test mode only: a live map naming it fails at boot. */
  readonly testOnly = true;

  constructor(
    private readonly sandbox: SandboxBillingRepository,
    private readonly clock: Clock,
  ) {}

  async createCustomer(applicationId: string, customerId: string): Promise<string> {
    await this.assertUp(applicationId);
    const reference = `cus_sbx_${randomBytes(12).toString('base64url')}`;
    await this.sandbox.insertCustomer(reference, applicationId, customerId, this.clock.now());
    return reference;
  }

  /**
   * One statement for the whole batch; an application told to fail has its events refused (to be
   * retried), an event with the refused identifier prefix is refused for good, the others go through.
   */
  async sendMeterEvents(events: ForwardedMeterEvent[]): Promise<MeterEventOutcome[]> {
    if (events.length === 0) return [];
    const refusedForGood = (e: ForwardedMeterEvent) => e.identifier.startsWith(SANDBOX_REFUSED_IDENTIFIER_PREFIX);
    const sendable = events.filter((e) => !refusedForGood(e));
    const refused = sendable.length ? await this.sandbox.recordEvents(sendable, this.clock.now()) : new Set<number>();
    let i = 0;
    return events.map((e): MeterEventOutcome => {
      if (refusedForGood(e)) return { ok: false, error: REFUSED, permanent: true };
      return refused.has(i++) ? { ok: false, error: FAILING } : { ok: true };
    });
  }

  /** Test control: make the sandbox refuse everything for this application (true) or recover (false). */
  setFailing(applicationId: string, failing: boolean): Promise<void> {
    return this.sandbox.setFailing(applicationId, failing);
  }

  /** What the sandbox received for an application, oldest first. */
  received(applicationId: string): Promise<SandboxReceivedEvent[]> {
    return this.sandbox.received(applicationId);
  }

  private async assertUp(applicationId: string): Promise<void> {
    if (await this.sandbox.isFailing(applicationId)) throw new BillingProviderError(FAILING);
  }
}
