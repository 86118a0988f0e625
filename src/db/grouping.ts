/**
 * Work for a database that runs one statement at a time (PGlite), gathered into groups: items offered while a
 * group is with the database wait for it and then go together as the next group, at most `max` of them (and
 * only items that `fits` lets in; the others wait for a later group). The first item of a quiet spell waits for
 * the rest of this turn of the event loop, so a burst of requests read from the sockets together goes as one.
 * `send` answers every item of its group itself (including with an error); a group never waits for another.
 */
export function groupedWhileBusy<T>(send: (group: T[]) => Promise<void>, options: { max: number; fits?: (group: T[], item: T) => boolean }): (item: T) => void {
  let waiting: T[] = [];
  let busy = false;
  const drain = async () => {
    while (waiting.length) {
      let group: T[];
      if (options.fits) {
        group = [];
        const rest: T[] = [];
        for (const item of waiting) (group.length < options.max && options.fits(group, item) ? group : rest).push(item);
        waiting = rest;
      } else group = waiting.splice(0, options.max);
      await send(group);
    }
    busy = false;
  };
  return (item) => {
    waiting.push(item);
    if (!busy) {
      busy = true;
      setImmediate(() => void drain());
    }
  };
}
