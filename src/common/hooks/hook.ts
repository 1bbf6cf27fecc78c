/**
 * One module's in-process event that other modules react to, so the owner imports none of them:
 * the reacting module registers in its `onModuleInit` with `on`, the owner calls `emit`. Listeners
 * run one after another, awaited, in the emitter's async context; a listener's error reaches the
 * emitter.
 */
export class Hook<E> {
  private readonly listeners: Array<(event: E) => Promise<void>> = [];

  on(listener: (event: E) => Promise<void>): void {
    this.listeners.push(listener);
  }

  async emit(event: E): Promise<void> {
    for (const listener of this.listeners) await listener(event);
  }
}
