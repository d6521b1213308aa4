/**
 * Seed 003 (Memory System), part 2 — lifecycle, budgets, degradation, concurrency (issue 19), against the real
 * engine on sqlite-wasm with a fixed clock. Latency figures are measured by `npm run bench`, not asserted here.
 */
import { describe, expect, it } from 'vitest';
import { MAX_MEMORY_QUERIES } from '../../src/lib/engine/admission';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { newSession, turn } from './helpers';

describe('seed 003 memory lifecycle and concurrency', () => {
  it('003 并发查询背压: of 80 memory queries at once, those beyond 32 get MEMORY_BACKPRESSURE at once and the admitted all finish', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 0; i < 20; i++) await turn(t, s.id, `第${i}场打斗：主角在雨夜追击刺客`, `好的，第${i}段动作描写。`);
    expectOk(await t.engine.call('memory.create', { content: '动作场景偏好短句、快节奏', category: 'preference' }));
    const order: string[] = [];
    const queries = Array.from({ length: 80 }, (_, i) => {
      const call =
        i % 4 === 0
          ? t.engine.call('recall.search', { query: '雨夜追击刺客', limit: 5 })
          : i % 4 === 1
            ? t.engine.call('memory.retrieve', { query: '动作场景怎么写' })
            : i % 4 === 2
              ? t.engine.call('memory.search', { keyword: '短句' })
              : t.engine.call('rules.list', {});
      return call.then((res) => {
        order.push(res.ok ? 'ok' : res.error.code);
        return res;
      });
    });
    const results = await Promise.all(queries);
    const refused = results.filter((r) => !r.ok);
    expect(results.filter((r) => r.ok)).toHaveLength(MAX_MEMORY_QUERIES);
    expect(refused).toHaveLength(80 - MAX_MEMORY_QUERIES);
    for (const r of refused) expect(r).toMatchObject({ ok: false, error: { code: 'MEMORY_BACKPRESSURE', details: { limit: 32 } } });
    // Refused at once: every refusal was answered before the first admitted query finished.
    expect(order.slice(0, 80 - MAX_MEMORY_QUERIES).every((o) => o === 'MEMORY_BACKPRESSURE')).toBe(true);
    // Once the pile-up is gone, queries are admitted again.
    expect(expectOk(await t.engine.call('recall.search', { query: '雨夜追击刺客' })).results.length).toBeGreaterThan(0);
  });
});
