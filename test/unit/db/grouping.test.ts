import { describe, expect, it } from '@jest/globals';
import { groupedWhileBusy } from '../../../src/db/grouping';

/** A sender that records its groups and finishes each when the test says so. */
function recorder() {
  const groups: number[][] = [];
  const finish: (() => void)[] = [];
  const send = (group: number[]) =>
    new Promise<void>((resolve) => {
      groups.push(group);
      finish.push(resolve);
    });
  return { groups, finish, send };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('groupedWhileBusy', () => {
  it('sends what came in one turn as one group, and what came while it was out as the next, at most `max` each', async () => {
    const { groups, finish, send } = recorder();
    const offer = groupedWhileBusy(send, { max: 3 });
    offer(1);
    offer(2);
    expect(groups).toEqual([]); // the first waits for the rest of the turn
    await turn();
    expect(groups).toEqual([[1, 2]]);
    for (const item of [3, 4, 5, 6]) offer(item);
    await turn();
    expect(groups).toEqual([[1, 2]]); // one group out at a time
    finish[0]();
    await turn();
    expect(groups).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    finish[1]();
    await turn();
    expect(groups).toEqual([[1, 2], [3, 4, 5], [6]]);
    finish[2]();
    await turn();
    offer(7); // quiet again: a new group after this turn
    await turn();
    expect(groups.at(-1)).toEqual([7]);
  });

  it('leaves an item that does not fit for a later group, keeping the order of the rest', async () => {
    const { groups, finish, send } = recorder();
    const offer = groupedWhileBusy(send, { max: 10, fits: (group, item) => !group.includes(item) });
    for (const item of [1, 2, 1, 3, 1]) offer(item);
    await turn();
    expect(groups).toEqual([[1, 2, 3]]);
    finish[0]();
    await turn();
    expect(groups).toEqual([[1, 2, 3], [1]]);
    finish[1]();
    await turn();
    expect(groups).toEqual([[1, 2, 3], [1], [1]]);
  });
});
