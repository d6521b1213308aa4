import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../errors';
import { memoryLogger } from '../log';
import { loadLayer } from './load-layer';

const memo = { id: 'memory:1', kind: 'memory', text: '用户的私人记忆内容' };

describe('004 任意层缺失/失败 MUST 可判定', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a source that answers in time gives ok (or empty)', async () => {
    await expect(loadLayer({ id: 'L4', load: async () => [memo], timeoutMs: 100 })).resolves.toEqual({ status: 'ok', items: [memo] });
    await expect(loadLayer({ id: 'L4', load: async () => [], timeoutMs: 100 })).resolves.toEqual({ status: 'empty', items: [] });
  });

  it('a slow source gives timeout and is told to stop', async () => {
    let stopped = false;
    const load = (signal: AbortSignal) =>
      new Promise<never>(() => {
        signal.addEventListener('abort', () => (stopped = true));
      });
    const pending = loadLayer({ id: 'L4', load, timeoutMs: 200 });
    await vi.advanceTimersByTimeAsync(200);
    await expect(pending).resolves.toEqual({ status: 'timeout', items: [], reason: 'TIMEOUT' });
    expect(stopped).toBe(true);
  });

  it('a canceled run gives canceled, before or during the load', async () => {
    const before = new AbortController();
    before.abort();
    await expect(loadLayer({ id: 'L1', load: async () => [memo], timeoutMs: 100, signal: before.signal })).resolves.toMatchObject({
      status: 'canceled',
    });
    const during = new AbortController();
    const pending = loadLayer({ id: 'L1', load: () => new Promise<never>(() => {}), timeoutMs: 1000, signal: during.signal });
    during.abort();
    await expect(pending).resolves.toEqual({ status: 'canceled', items: [], reason: 'CANCELED' });
  });

  it('a source that cannot be interrupted (a synchronous read) but overran its deadline is a timeout too', async () => {
    let clock = 0;
    const slowSync = async () => {
      clock += 250; // the read held the thread for 250 ms
      return [memo];
    };
    await expect(loadLayer({ id: 'L2', load: slowSync, timeoutMs: 200, now: () => clock })).resolves.toEqual({ status: 'timeout', items: [], reason: 'TIMEOUT' });
    clock = 0;
    const quick = async () => {
      clock += 50;
      return [memo];
    };
    await expect(loadLayer({ id: 'L2', load: quick, timeoutMs: 200, now: () => clock })).resolves.toEqual({ status: 'ok', items: [memo] });
  });

  it('a failing source gives missing with its code, logged without content', async () => {
    const logger = memoryLogger();
    const failing = async () => {
      throw new EngineError('DB_UNAVAILABLE', 'database is locked');
    };
    await expect(loadLayer({ id: 'L2', load: failing, timeoutMs: 100, logger })).resolves.toEqual({
      status: 'missing',
      items: [],
      reason: 'DB_UNAVAILABLE',
    });
    const bug = async () => {
      throw new TypeError(memo.text);
    };
    await expect(loadLayer({ id: 'L4', load: bug, timeoutMs: 100, logger })).resolves.toMatchObject({ status: 'missing', reason: 'INTERNAL' });
    expect(logger.lines.map((l) => l.fields)).toEqual([
      { layer: 'L2', status: 'missing', code: 'DB_UNAVAILABLE' },
      { layer: 'L4', status: 'missing', code: 'INTERNAL' },
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain(memo.text);
  });
});
