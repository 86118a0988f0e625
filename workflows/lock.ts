import { condition } from '@temporalio/workflow';

/** Serialises async update handlers so two of them never interleave around an activity. */
export class Lock {
  private held = false;

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await condition(() => !this.held);
    this.held = true;
    try {
      return await fn();
    } finally {
      this.held = false;
    }
  }
}
