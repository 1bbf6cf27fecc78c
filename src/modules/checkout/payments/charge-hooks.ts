import { Injectable } from '@nestjs/common';
import type { Principal } from '../../../common/context/principal.js';
import { Hook } from '../../../common/hooks/hook.js';

/**
 * Reactions to charges by modules that checkout does not depend on. The disputes module registers
 * in its `onModuleInit` to open the dispute the sandbox's test card asks for right after a payment
 * succeeds, so checkout imports no disputes code. Listeners run after the paying transaction
 * committed, with the paying request's principal.
 */
@Injectable()
export class ChargeHooks {
  readonly sandboxDispute = new Hook<{ principal: Principal; chargeId: string }>();
}
