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
});
