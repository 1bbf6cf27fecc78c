import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProviderRegistry } from '../../../common/providers/provider-registry.js';
import { RequestContext } from '../../../common/context/request-context.js';
import type { AllConfig } from '../../../config/app.config.js';
import { ProviderAdapters } from '../../../providers/provider-adapters.js';
import { SandboxTransferProvider } from './sandbox-transfer.provider.js';
import type { TransferProvider } from '../../../providers/ports/transfer.port.js';

/**
 * Which transfer provider serves an application country in a mode (TRANSFER_PROVIDERS for test
 * mode, TRANSFER_PROVIDERS_LIVE for live mode; `none` = disabled); unknown names, and a sandbox in
 * the live map, fail at boot. A live country the live map does not name is E5003.
 */
@Injectable()
export class TransferProviders extends ProviderRegistry<TransferProvider> {
  constructor(
    config: ConfigService<AllConfig, true>,
    sandbox: SandboxTransferProvider,
    adapters: ProviderAdapters,
    context: RequestContext,
  ) {
    super(
      'transfer',
      'TRANSFER_PROVIDERS',
      [sandbox, ...adapters.transfer],
      {
        test: config.get('app.transferProviders', { infer: true }),
        live: config.get('app.transferProvidersLive', { infer: true }),
      },
      { allowNone: true, livemode: () => context.optionalLivemode },
    );
  }
}
