import { Hook } from './hook.js';

describe('Hook', () => {
  it('runs listeners in registration order, each awaited before the next', async () => {
    const hook = new Hook<number>();
    const seen: string[] = [];
    hook.on(async (n) => {
      await Promise.resolve();
      seen.push(`a${n}`);
    });
    hook.on(async (n) => {
      seen.push(`b${n}`);
    });
    await hook.emit(1);
    await hook.emit(2);
    expect(seen).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it("passes a listener's error to the emitter and stops there", async () => {
    const hook = new Hook<void>();
    let afterRan = false;
    hook.on(async () => {
      throw new Error('refused');
    });
    hook.on(async () => {
      afterRan = true;
    });
    await expect(hook.emit()).rejects.toThrow('refused');
    expect(afterRan).toBe(false);
  });
});
