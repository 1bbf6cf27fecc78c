import { Injectable } from '@nestjs/common';
import type { ApplicationRef } from '../../common/context/principal.js';
import { Hook } from '../../common/hooks/hook.js';

/**
 * Other modules set up what every new application needs (its own account, for instance) by
 * registering here in their `onModuleInit`, so this module depends on none of them.
 */
@Injectable()
export class ApplicationHooks {
  readonly created = new Hook<ApplicationRef>();
}
