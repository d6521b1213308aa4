/**
 * The episode phase's pairing (issue 17): memory.create is timed between the records and memory.retrieve alternately
 * with episode.query, and the memories the pairing adds are gone before the queries, so memory.retrieve searches
 * the same memories as the stand-in phase.
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { episodeReference, episodeWorkload } from './episodes';

const run = async (retrieveQueries?: string[]) => {
  const t = await createTestEngine();
  expectOk(await t.engine.call('memory.create', { content: 'The user keeps the payment webhook in invoiceStore' }));
  const calls: string[] = [];
  const engine = { ...t.engine, call: ((method: string, input: unknown) => (calls.push(method), t.engine.call(method as never, input as never))) as typeof t.engine.call };
  const report = await episodeWorkload({ engine, seed: 7, count: 40, queries: 10, lists: 2, rules: 2, samples: 0, ...(retrieveQueries ? { retrieveQueries } : {}), setState: () => {} });
  return { t, report, calls };
};

describe('episode phase pairing (bench/speed/episodes.ts)', () => {
  it('times memory.create between the records and memory.retrieve after each episode.query, then leaves the memories as they were', async () => {
    const { t, report, calls } = await run(['payment webhook', '支付 回调']);
    expect(report.recordMs).toHaveLength(40);
    // About as many creates as queries, spread over the recording: one after every 4th record here.
    expect(report.memoryCreatePairedMs).toHaveLength(10);
    expect(report.memoryRetrievePairedMs).toHaveLength(10);
    const firstQuery = calls.indexOf('episode.query');
    expect(calls.lastIndexOf('memory.create')).toBeLessThan(firstQuery);
    expect(calls.slice(firstQuery, firstQuery + 4)).toEqual(['episode.query', 'memory.retrieve', 'episode.query', 'memory.retrieve']);
    expect(calls.filter((c) => c === 'memory.delete')).toHaveLength(10);
    expect(expectOk(await t.engine.call('memory.list', { limit: 20 })).total).toBe(1);
  });

  it('without queries for memory.retrieve nothing is paired (the report falls back to the stand-in phase)', async () => {
    const { report, calls } = await run();
    expect(report.memoryCreatePairedMs).toEqual([]);
    expect(report.memoryRetrievePairedMs).toEqual([]);
    expect(calls).not.toContain('memory.create');
    expect(calls).not.toContain('memory.retrieve');
  });

  it('the reference at scale, run after the phase: memories filled up to as many as episodes, then episode.query paired with memory.retrieve', async () => {
    const { t, report, calls } = await run(['payment webhook', '支付 回调']);
    // The phase itself adds no memories (the figures the goal reads are as before).
    expect(report.memoriesAtScale).toBeUndefined();
    expect(expectOk(await t.engine.call('memory.list', { limit: 1 })).total).toBe(1);
    calls.length = 0;
    const engine = { ...t.engine, call: ((method: string, input: unknown) => (calls.push(method), t.engine.call(method as never, input as never))) as typeof t.engine.call };
    const ref = await episodeReference({ engine, seed: 7, memories: 40, queries: 10, retrieveQueries: ['payment webhook', '支付 回调'], setState: () => {} });
    expect(ref.memoriesAtScale).toBe(40);
    expect(expectOk(await t.engine.call('memory.list', { limit: 1 })).total).toBe(40);
    expect(calls.filter((c) => c === 'memory.create')).toHaveLength(39);
    expect(ref.queryAtScaleMs).toHaveLength(10);
    expect(ref.memoryRetrieveAtScaleMs).toHaveLength(10);
    const after = calls.slice(calls.lastIndexOf('memory.create') + 1).filter((c) => c === 'episode.query' || c === 'memory.retrieve');
    expect(after.slice(0, 4)).toEqual(['episode.query', 'memory.retrieve', 'episode.query', 'memory.retrieve']);
    expect(after).toHaveLength(20);
  });

  it('the reference refuses to run without the phase\'s episodes instead of timing empty queries', async () => {
    const t = await createTestEngine();
    await expect(episodeReference({ engine: t.engine, seed: 7, memories: 10, queries: 2, retrieveQueries: ['x'], setState: () => {} })).rejects.toThrow(/episodeWorkload/);
  });
});
