import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../domain/log';
import { createTestEngine } from '../testing';
import { createMemoryRepo } from '../store/memory-repo';
import { createSettingsRepo } from '../store/settings-repo';
import { createEviction } from './eviction';

interface Row {
  name: string;
  confidence: number;
  /** Days after the start when it was last used; undefined = never (its creation counts). */
  accessedDay?: number;
  createdDay: number;
  byUser?: boolean;
}

const DAY = 86_400_000;

async function run(rows: Row[], threshold: number | null) {
  const t = await createTestEngine();
  const memories = createMemoryRepo(t.engine.env);
  const start = t.clock.now();
  const ids = new Map<string, string>();
  for (const r of rows) {
    t.clock.set(start + r.createdDay * DAY);
    const m = memories.insert(
      { scope: 'global', projectId: null, sessionId: null, messageId: null, category: 'fact', key: `fact.test.${r.name}`, value: r.name, content: r.name, tags: [], confidence: r.confidence, source: 'inferred', language: 'en' },
      { actor: r.byUser ? 'user' : 'extractor' },
    );
    ids.set(m.id, r.name);
  }
  for (const r of rows) {
    if (r.accessedDay === undefined) continue;
    t.clock.set(start + r.accessedDay * DAY);
    memories.markAccessed([[...ids].find(([, n]) => n === r.name)![0]]);
  }
  const log = memoryLogger();
  const report = createEviction({ memories, settings: createSettingsRepo(t.engine.env), log }).run(threshold);
  return { evicted: report.evicted.map((id) => ids.get(id)), report, log };
}

describe('eviction (001 "Optional memory eviction": lowest confidence first, then the oldest access)', () => {
  const rows: Row[] = [
    { name: 'sure-old', confidence: 0.9, createdDay: 0 },
    { name: 'unsure-used-late', confidence: 0.3, createdDay: 0, accessedDay: 20 },
    { name: 'unsure-used-early', confidence: 0.3, createdDay: 0, accessedDay: 5 },
    { name: 'unsure-never-used-new', confidence: 0.3, createdDay: 10 },
    { name: 'middling', confidence: 0.6, createdDay: 1 },
    { name: 'typed-by-user', confidence: 0.1, createdDay: 0, byUser: true },
  ];

  it.each([
    { threshold: null, evicted: [] },
    { threshold: 6, evicted: [] },
    { threshold: 5, evicted: ['unsure-used-early'] },
    { threshold: 3, evicted: ['unsure-used-early', 'unsure-never-used-new', 'unsure-used-late'] },
    { threshold: 2, evicted: ['unsure-used-early', 'unsure-never-used-new', 'unsure-used-late', 'middling'] },
    // Only hand-made memories would be left to evict: they stay, above the threshold.
    { threshold: 0, evicted: ['unsure-used-early', 'unsure-never-used-new', 'unsure-used-late', 'middling', 'sure-old'] },
  ])('threshold $threshold evicts $evicted', async ({ threshold, evicted }) => {
    const result = await run(rows, threshold);
    expect(result.evicted).toEqual(evicted);
    expect(result.report.active).toBe(rows.length - evicted.length);
  });

  it('logs counts only', async () => {
    const { log } = await run(rows, 5);
    expect(log.lines.filter((l) => l.event === 'memory.evicted')).toEqual([{ level: 'info', event: 'memory.evicted', fields: { count: 1, threshold: 5 } }]);
  });
});
