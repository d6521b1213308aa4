import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLocks } from './testing';

/** What happened, in order, while the DB worker's API started its engine. */
const events: string[] = [];
let closedDrivers = 0;

vi.mock('../store/open-wasm', async (actual) => {
  const real = await actual<typeof import('../store/open-wasm')>();
  const { notedOpening } = await import('./testing');
  const noted = notedOpening(real.openWasmDatabase, events);
  return {
    ...real,
    openWasmDatabase: (opts: Parameters<typeof real.openWasmDatabase>[0]) =>
      noted(opts).then((opened) => {
        const close = opened.driver.close.bind(opened.driver);
        opened.driver.close = () => {
          closedDrivers++;
          close();
        };
        return opened;
      }),
  };
});

// The engine's code, which the worker loads lazily (a chunk of its own in the build): evaluated on first import.
vi.mock('./open-engine', async (actual) => {
  events.push('engine code loaded');
  return actual<typeof import('./open-engine')>();
});

beforeEach(() => {
  events.length = 0;
  closedDrivers = 0;
  vi.resetModules();
  vi.stubGlobal('navigator', { locks: fakeLocks() });
});
afterEach(() => vi.unstubAllGlobals());

const startedApi = async () => {
  const { createDbWorkerApi } = await import('./worker-api');
  const api = createDbWorkerApi();
  api.start({ persistent: false });
  return api;
};

describe('the DB worker API: the engine’s code loads beside the database’s opening (issue 16 item 3)', () => {
  it('starts opening the database before the engine’s code has loaded, and a call sent at once answers once both are done', async () => {
    const api = await startedApi();
    // Sent before the engine is up, as the page's first recall is: it waits for the engine rather than failing.
    const first = api.call({ method: 'recall.search', input: { query: 'parseConfig', limit: 5 } });
    expect(events).not.toContain('engine code loaded');
    const res = await first;
    expect(res).toMatchObject({ ok: true, data: { results: [], totalSearched: 0, query: { symbols: ['parseConfig'] } } });
    expect(events.indexOf('open started')).toBeLessThan(events.indexOf('engine code loaded'));
    // Every call works on the engine the lazily loaded code built: a write, then a read that sees it.
    const created = await api.call({ method: 'session.create', input: { title: 'after a lazy start' } });
    expect(created.ok).toBe(true);
    const listed = await api.call({ method: 'session.list', input: {} });
    expect(JSON.stringify(listed)).toContain('after a lazy start');
    expect(api.startup()).toHaveProperty('engine');
  });

  it('when the engine’s code cannot load, calls fail with a clear error and the opened database is closed', async () => {
    vi.doMock('./open-engine', () => {
      events.push('engine code loaded');
      throw new Error('Failed to fetch dynamically imported module');
    });
    const api = await startedApi();
    const res = await api.call({ method: 'system.status', input: {} });
    expect(res).toMatchObject({ ok: false, error: { code: 'DB_UNAVAILABLE', message: expect.stringContaining('could not be opened') } });
    expect(events).toContain('database open');
    expect(closedDrivers).toBe(1);
  });
});

describe('the DB worker API: the stall probe’s timeline (issue 16 item 5)', () => {
  it('keeps no timeline until recordTimeline(true), then notes each call the engine answers', async () => {
    vi.doUnmock('./open-engine'); // the test before made the engine's code fail to load
    const api = await startedApi();
    const t0 = performance.timeOrigin + performance.now();
    expect((await api.call({ method: 'session.list', input: {} })).ok).toBe(true);
    expect(api.timeline(t0 - 1, performance.timeOrigin + performance.now() + 1)).toEqual([]);
    api.recordTimeline(true);
    expect((await api.call({ method: 'session.list', input: {} })).ok).toBe(true);
    expect(api.timeline(t0 - 1, performance.timeOrigin + performance.now() + 1)).toMatchObject([{ kind: 'call', method: 'session.list' }]);
    api.recordTimeline(false);
    expect(api.timeline(t0 - 1, performance.timeOrigin + performance.now() + 1)).toEqual([]);
  });
});

describe('the DB worker API: the segmenter version probed in the wait (issue 16 item 3)', () => {
  it('asks for the index’s segmenter version while the engine’s code is still loading, and the engine starts as before', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.doMock('../../domain/text/segment', async () => {
      const real = await vi.importActual<typeof import('../../domain/text/segment')>('../../domain/text/segment');
      return {
        ...real,
        segmenterVersion: () => {
          events.push('segmenter version');
          return real.segmenterVersion();
        },
      };
    });
    vi.doMock('./open-engine', async () => {
      await gate;
      events.push('engine code loaded');
      return vi.importActual<typeof import('./open-engine')>('./open-engine');
    });
    try {
      const api = await startedApi();
      const first = api.call({ method: 'recall.search', input: { query: '登录超时', limit: 5 } });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(events).toContain('segmenter version');
      expect(events).not.toContain('engine code loaded');
      release();
      expect(await first).toMatchObject({ ok: true });
      // The engine's start-up check still asked for it, after its code had loaded and before the first query answered.
      expect(events.lastIndexOf('segmenter version')).toBeGreaterThan(events.indexOf('engine code loaded'));
    } finally {
      release();
      vi.doUnmock('./open-engine');
      vi.doUnmock('../../domain/text/segment');
    }
  });
});
