import { describe, expect, it } from '@jest/globals';
import { Lock } from '../../../workflows/lock';

describe('workflow Lock', () => {
  it('runs holders one at a time, in arrival order', async () => {
    const lock = new Lock();
    const log: string[] = [];
    let inside = 0;
    const task = (name: string) =>
      lock.run(async () => {
        inside++;
        expect(inside).toBe(1);
        log.push(`${name}:start`);
        await Promise.resolve();
        await new Promise((r) => setTimeout(r, 5));
        log.push(`${name}:end`);
        inside--;
        return name;
      });
    expect(await Promise.all([task('a'), task('b'), task('c')])).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });

  it('is released when a holder throws', async () => {
    const lock = new Lock();
    await expect(lock.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lock.run(async () => 'next')).toBe('next');
  });

  it("hands a holder's failure to the caller as `failure` maps it, and is released", async () => {
    const lock = new Lock();
    const wrapped = new Error('wrapped', { cause: new Error('refusal') });
    const unwrap = (error: unknown) => (error instanceof Error && error.cause instanceof Error ? error.cause : error);
    await expect(lock.run(async () => Promise.reject(wrapped), unwrap)).rejects.toThrow('refusal');
    await expect(lock.run(async () => Promise.reject(wrapped))).rejects.toBe(wrapped);
    expect(await lock.run(async () => 'next', unwrap)).toBe('next');
  });

  it('maps a failure without an await of its own: a holder settles as many microtasks after its body as without mapping', async () => {
    const settledAfter = async (run: (fn: () => Promise<string>) => Promise<string>) => {
      let ticks = 0;
      let counting = true;
      const count = async () => {
        while (counting) {
          ticks++;
          await Promise.resolve();
        }
      };
      const counted = count();
      await run(async () => 'done');
      counting = false;
      await counted;
      return ticks;
    };
    const lock = new Lock();
    const plain = await settledAfter((fn) => lock.run(fn));
    expect(await settledAfter((fn) => lock.run(fn, (e) => e))).toBe(plain);
    const awaitingWrapper = (fn: () => Promise<string>) => lock.run(async () => await fn());
    expect(await settledAfter(awaitingWrapper)).toBeGreaterThan(plain);
  });
});
