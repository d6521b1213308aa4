import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../domain/log';

/** What happened, in order, while the DB worker's engine opened. */
const events: string[] = [];

vi.mock('../recall/warm-up', async (actual) => {
  const real = await actual<typeof import('../recall/warm-up')>();
  return {
    ...real,
    warmRecallAnalysis: (now: number) => {
      events.push('warm-up');
      return real.warmRecallAnalysis(now);
    },
  };
});

vi.mock('../store/open-wasm', async (actual) => {
  const real = await actual<typeof import('../store/open-wasm')>();
  const { notedOpening } = await import('./testing');
  return { ...real, openWasmDatabase: notedOpening(real.openWasmDatabase, events) };
});

const { openBrowserEngine } = await import('./open-engine');

describe('openBrowserEngine: the cold start (issue 16 item 3)', () => {
  it('warms the first recall’s question analysis once, after sqlite-wasm starts loading and before the database is open', async () => {
    const engine = await openBrowserEngine({ persistent: false, log: silentLogger, waiting: () => {} });
    try {
      expect(events).toEqual(['open started', 'warm-up', 'database open']);
      const res = await engine.handle({ method: 'recall.search', input: { query: 'parseConfig', limit: 5 } });
      expect(res.ok).toBe(true);
    } finally {
      engine.close();
    }
  });
});
