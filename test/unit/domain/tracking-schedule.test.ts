import { describe, expect, it } from '@jest/globals';
import { firstCheckIn, nextCheckIn, TRACKING_MAX_WAIT_MS, TRACKING_RETIRES_AFTER_MS } from '../../../src/domain/tracking-schedule';
import { newEvents } from '../../../src/domain/tracking';

const DAY = 86_400_000;
const pace = { intervalMs: 15 * 60_000, minReaskMs: 0 };

describe('tracking schedule', () => {
  it('asks a consignment just handed over after a third of the interval, then every interval while news comes', () => {
    expect(firstCheckIn(pace)).toBe(5 * 60_000);
    expect(nextCheckIn(pace, 0, 0)).toBe(15 * 60_000);
    expect(nextCheckIn(pace, DAY - 1, 0)).toBe(15 * 60_000);
  });

  it('asks less often the longer the carrier is quiet, and no more after 90 days', () => {
    expect(nextCheckIn(pace, DAY, 0)).toBe(30 * 60_000);
    expect(nextCheckIn(pace, 3 * DAY, 0)).toBe(60 * 60_000);
    expect(nextCheckIn(pace, 7 * DAY, 0)).toBe(2 * 3_600_000);
    expect(nextCheckIn(pace, 30 * DAY, 0)).toBe(4 * 3_600_000);
    expect(nextCheckIn(pace, TRACKING_RETIRES_AFTER_MS - 1, 0)).toBe(4 * 3_600_000);
    expect(nextCheckIn(pace, TRACKING_RETIRES_AFTER_MS, 0)).toBeNull();
  });

  it('doubles the wait for each answer in a row that was an error, up to 6 hours', () => {
    expect(nextCheckIn(pace, 0, 1)).toBe(30 * 60_000);
    expect(nextCheckIn(pace, 0, 3)).toBe(2 * 3_600_000);
    expect(nextCheckIn(pace, 0, 10)).toBe(TRACKING_MAX_WAIT_MS);
  });

  it('never asks sooner than the carrier allows (a cache, or a refusal of repeats)', () => {
    const sendeo = { intervalMs: 60_000, minReaskMs: 30 * 60_000 };
    expect(firstCheckIn(sendeo)).toBe(30 * 60_000);
    expect(nextCheckIn(sendeo, 0, 0)).toBe(30 * 60_000);
    // A short interval (tests, benches) is kept as it is.
    expect(nextCheckIn({ intervalMs: 1_000, minReaskMs: 0 }, 0, 0)).toBe(1_000);
  });
});

describe('new carrier events', () => {
  const ev = (eventId: string, at: string) => ({ eventId, event: 'IN_TRANSIT' as const, occurredAt: at, location: null, message: null });
  const listed = [ev('a', '2026-11-24T10:00:00Z'), ev('b', '2026-11-25T10:00:00Z'), ev('c', '2026-11-26T10:00:00Z')];

  it('are the ones after the newest handed over, oldest first; none when nothing was added', () => {
    expect(newEvents([listed[2], listed[0], listed[1]], { lastEventId: 'a', eventsSeen: 1 }).map((e) => e.eventId)).toEqual(['b', 'c']);
    expect(newEvents(listed, { lastEventId: 'c', eventsSeen: 3 })).toEqual([]);
    expect(newEvents(listed, { lastEventId: null, eventsSeen: 0 }).map((e) => e.eventId)).toEqual(['a', 'b', 'c']);
  });

  it('are all of them when the list changed before the newest (a late scan): the workflow drops what it has', () => {
    const late = [...listed, ev('late', '2026-11-25T12:00:00Z')];
    expect(newEvents(late, { lastEventId: 'c', eventsSeen: 3 }).map((e) => e.eventId)).toEqual(['a', 'b', 'late', 'c']);
  });
});
