/**
 * Issue 18: memory retrieval asks for the meaning lane before it reads its keyword candidates, so the question's
 * embedding (the endpoint) and the vector search (the search worker) run beside the full-text reads instead of
 * after them — the same order recall.search keeps (recall-service.ts).
 */
import { describe, expect, it } from 'vitest';
import type { SqlDriver } from '../store/driver';
import { createMemoryQuery } from '../store/memory-query';
import { createSettingsRepo } from '../store/settings-repo';
import { createTestEngine, expectOk } from '../testing';
import { createRetrievalService } from './retrieval-service';

describe('memory retrieval with meaning-based recall', () => {
  it('asks for the meaning lane before its first full-text read, and uses what the lane found', async () => {
    const t = await createTestEngine();
    const kept = expectOk(await t.engine.call('memory.create', { category: 'fact', content: 'Has a pup from the rescue named Bao.' }));
    expectOk(await t.engine.call('memory.create', { category: 'fact', content: 'The kitchen tap leaks.' }));
    const order: string[] = [];
    const counted: SqlDriver = {
      ...t.engine.env.driver,
      all: (sql, p) => (/memories_fts/.test(sql) && order.push('fts'), t.engine.env.driver.all(sql, p)),
      get: (sql, p) => (/memories_fts/.test(sql) && order.push('fts'), t.engine.env.driver.get(sql, p)),
    };
    const env = { ...t.engine.env, driver: counted };
    const rowid = t.driver.get<{ rowid: number }>('SELECT rid AS rowid FROM memories WHERE id = ?', [kept.id])?.rowid as number;
    const service = createRetrievalService({
      query: createMemoryQuery(env),
      settings: createSettingsRepo(env),
      workingMemory: { peek: () => undefined },
      clock: t.clock,
      log: t.log,
      semantic: {
        lane: async () => {
          order.push('lane');
          return { hits: new Map([[rowid, 0.9]]), info: { state: 'on', model: 'm', reason: null, coverage: null } };
        },
      },
    });
    const out = await service.retrieve({ query: 'my dog', topN: 5 });
    expect(order[0]).toBe('lane');
    expect(order).toContain('fts');
    expect(out.items.find((i) => i.memory.id === kept.id)?.via).toBe('semantic');
  });
});
