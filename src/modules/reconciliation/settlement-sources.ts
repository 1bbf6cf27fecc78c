import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import type { SettlementProvider } from '../../providers/ports/settlement.port.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import { SandboxSettlementProvider } from './sandbox-settlement.provider.js';

/**
 * Where a run's settlement comes from: in live mode only the real providers that have live keys; in
 * test mode also the sandbox (docs/RECONCILIATION.md, "Modes").
 */
@Injectable()
export class SettlementSources {
  private readonly sandbox: SandboxSettlementProvider;

  constructor(
    private readonly adapters: ProviderAdapters,
    clock: Clock,
  ) {
    this.sandbox = new SandboxSettlementProvider(() => clock.now());
  }

  of(provider: string, mode: Mode): SettlementProvider | undefined {
    if (provider === this.sandbox.name) return mode === 'test' ? this.sandbox : undefined;
    return this.adapters.settlementsFor(provider, mode);
  }

  /** The real providers with settlements in `mode`: the schedule's. */
  scheduled(mode: Mode): string[] {
    return this.adapters.settlementProviders(mode);
  }
}
