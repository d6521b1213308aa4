import { describe, expect, it } from 'vitest';
import { BUSY_OPEN, openWhileBusy } from './open-retry';

/** A clock that moves only when the retry loop sleeps. */
function fakeTime() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe('opening a database file another context still holds', () => {
  it('keeps trying while the file is busy — well past the point where it says so — and then opens it', async () => {
    const time = fakeTime();
    let attempts = 0;
    let waitingAt: number | null = null;
    let toldTimes = 0;
    const outcome = await openWhileBusy({
      attempt: async () => {
        if (++attempts < 120) throw new Error('Access Handles cannot be created for this file');
        return 'db';
      },
      isBusy: (m) => BUSY_OPEN.test(m),
      waitingAfterMs: 8000,
      onWaiting: () => {
        toldTimes++;
        waitingAt ??= time.now();
      },
      ...time,
    });
    expect(outcome).toEqual({ kind: 'opened', value: 'db', attempts: 120 });
    // Minutes of busy: never an in-memory database in its place, and the user was told once.
    expect(time.now()).toBeGreaterThan(200_000);
    expect(toldTimes).toBe(1);
    expect(waitingAt).toBeGreaterThanOrEqual(8000);
    expect(waitingAt).toBeLessThan(12_000);
  });

  it('a failure that is not "busy" (no OPFS here) ends at once: the caller falls back to memory', async () => {
    const time = fakeTime();
    const outcome = await openWhileBusy({
      attempt: async () => Promise.reject(new Error('Missing required OPFS APIs.')),
      isBusy: (m) => BUSY_OPEN.test(m),
      waitingAfterMs: 8000,
      onWaiting: () => expect.unreachable('not waiting: OPFS does not exist'),
      ...time,
    });
    expect(outcome).toMatchObject({ kind: 'unavailable', reason: 'Missing required OPFS APIs.' });
    expect(time.now()).toBe(0);
  });

  it('a full disk is never "busy", even when SQLite words it as "unable to open" (issue 13): it ends at once', async () => {
    const time = fakeTime();
    const full = Object.assign(new Error('SQLITE_CANTOPEN: unable to open database file'), { name: 'QuotaExceededError' });
    const outcome = await openWhileBusy({
      attempt: async () => Promise.reject(full),
      isBusy: (m) => BUSY_OPEN.test(m),
      isFatal: (err) => (err as Error).name === 'QuotaExceededError',
      waitingAfterMs: 8000,
      onWaiting: () => expect.unreachable('not waiting: the disk is full, not held'),
      ...time,
    });
    expect(outcome).toMatchObject({ kind: 'unavailable', error: full });
    expect(time.now()).toBe(0);
  });

  it.each([
    ['Access Handles cannot be created', true],
    ['NoModificationAllowedError: file is locked', true],
    ['SQLITE_CANTOPEN: unable to open database file', true],
    ['Missing required OPFS APIs.', false],
    ['SecurityError: The operation is insecure.', false],
  ])('%s → busy: %s', (message, busy) => {
    expect(BUSY_OPEN.test(message)).toBe(busy);
  });
});
