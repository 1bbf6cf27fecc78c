import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProviderRegistry } from '../../../common/providers/provider-registry.js';
import type { AllConfig } from '../../../config/app.config.js';
import { SandboxTransferProvider } from './sandbox-transfer.provider.js';
import type { TransferProvider } from './transfer.types.js';

/**
 * Which transfer provider serves an application country (TRANSFER_PROVIDERS, `none` = disabled);
 * unknown names fail at boot.
 */
@Injectable()
export class TransferProviders extends ProviderRegistry<TransferProvider> {
  constructor(config: ConfigService<AllConfig, true>, sandbox: SandboxTransferProvider) {
    super('TRANSFER_PROVIDERS', [sandbox], config.get('app.transferProviders', { infer: true }), { allowNone: true });
  }
}
