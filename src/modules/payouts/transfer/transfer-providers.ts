import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../config/app.config.js';
import { SandboxTransferProvider } from './sandbox-transfer.provider.js';
import type { TransferProvider } from './transfer.types.js';

/** The configured name that turns the transfer provider off for a country. */
export const NO_PROVIDER = 'none';

/**
 * Which transfer provider serves an application country (TRANSFER_PROVIDERS, `none` = disabled);
 * unknown names fail at boot.
 */
@Injectable()
export class TransferProviders {
  private readonly byName: Map<string, TransferProvider>;
  private readonly byCountry: Record<string, string>;

  constructor(config: ConfigService<AllConfig, true>, sandbox: SandboxTransferProvider) {
    this.byName = new Map([[sandbox.name, sandbox]]);
    this.byCountry = config.get('app.transferProviders', { infer: true });
    for (const name of Object.values(this.byCountry)) {
      if (name !== NO_PROVIDER && !this.byName.has(name)) {
        throw new Error(`TRANSFER_PROVIDERS names an unknown transfer provider "${name}"`);
      }
    }
  }

  /** The provider enabled for the country, or null when transfers go through no provider there. */
  forCountry(country: string): TransferProvider | null {
    const name = this.byCountry[country] ?? this.byCountry['*'] ?? 'sandbox';
    return name === NO_PROVIDER ? null : this.byName.get(name)!;
  }
}
