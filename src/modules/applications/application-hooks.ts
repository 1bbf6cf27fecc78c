import { Injectable } from '@nestjs/common';
import type { ApplicationRef } from '../../common/context/principal.js';

export type ApplicationCreatedListener = (application: ApplicationRef) => Promise<void>;

/**
 * Other modules set up what every new application needs (its own account, for instance) by
 * registering here in their `onModuleInit`, so this module depends on none of them.
 */
@Injectable()
export class ApplicationHooks {
  private readonly listeners: ApplicationCreatedListener[] = [];

  onApplicationCreated(listener: ApplicationCreatedListener): void {
    this.listeners.push(listener);
  }

  async applicationCreated(application: ApplicationRef): Promise<void> {
    for (const listener of this.listeners) await listener(application);
  }
}
