import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRequestControl } from './request-control';

describe('createRequestControl', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('times out after silence, and kick() restarts the wait', () => {
    const c = createRequestControl({ timeoutMs: 100 });
    vi.advanceTimersByTime(80);
    c.kick();
    vi.advanceTimersByTime(80);
    expect(c.signal.aborted).toBe(false);
    vi.advanceTimersByTime(30);
    expect(c.signal.aborted).toBe(true);
    expect(c.stopped()).toBe('timeout');
  });

  it("tells the user's stop from a timeout, and the first cause wins", () => {
    const user = new AbortController();
    const c = createRequestControl({ signal: user.signal, timeoutMs: 100 });
    user.abort();
    vi.advanceTimersByTime(200);
    expect(c.stopped()).toBe('canceled');
    expect(createRequestControl({ signal: AbortSignal.abort(), timeoutMs: 100 }).stopped()).toBe('canceled');
  });

  it('after dispose, neither the timer nor the user signal stops it, and abort() is not a cause', () => {
    const user = new AbortController();
    const c = createRequestControl({ signal: user.signal, timeoutMs: 100 });
    c.dispose();
    user.abort();
    vi.advanceTimersByTime(200);
    expect(c.stopped()).toBe(null);
    c.abort();
    expect(c.signal.aborted).toBe(true);
    expect(c.stopped()).toBe(null);
  });
});
