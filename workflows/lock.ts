/**
 * Serialises async update and signal handlers so two of them never interleave around an activity.
 * FIFO, and release hands the lock straight to the next waiter: a `condition(() => !held)` lock would let
 * every waiter through at once, because the SDK evaluates all pending conditions in the same pass.
 */
export class Lock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  /**
   * Runs `fn` holding the lock. `failure` turns what `fn` throws into what the caller gets; it runs in the lock's
   * own `catch`, so mapping errors adds no await and the holder's commands keep their place in the activation.
   */
  async run<T>(fn: () => Promise<T>, failure: (error: unknown) => unknown = (error) => error): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.waiters.push(resolve));
    else this.held = true;
    try {
      return await fn();
    } catch (error) {
      throw failure(error);
    } finally {
      const next = this.waiters.shift();
      if (next) next();
      else this.held = false;
    }
  }
}
