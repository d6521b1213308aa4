import { describe, expect, it } from 'vitest';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { createTestEngine } from '../testing';
import { createMemoryRepo, type NewMemory } from './memory-repo';
import type { MemorySnapshot } from './memory-rows';

const base: NewMemory = {
  scope: 'global',
  projectId: null,
  sessionId: 's-1',
  messageId: null,
  category: 'preference',
  key: 'preference.food.coffee',
  value: { object: '咖啡', stance: 'like' },
  content: '我喜欢喝咖啡',
  tags: ['饮品'],
  confidence: 0.9,
  source: 'user_stated',
  language: 'zh',
};

async function setup() {
  const t = await createTestEngine();
  const repo = createMemoryRepo(t.engine.env);
  // Queries go through the same segmenter as the index (buildMatchQuery), as retrieval's do.
  const matches = (q: string) =>
    t.driver.all<{ rowid: number }>('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?', [buildMatchQuery([q], { prefix: false })]).length;
  return { t, repo, matches };
}

describe('memory repo: history and full-text index in step', () => {
  it('records a create with its snapshot, and indexes content, tags, value and key', async () => {
    const { repo, matches } = await setup();
    const m = repo.insert(base, { actor: 'extractor', reason: 'extract:add' });
    expect(m).toMatchObject({ version: 1, status: 'active', accessCount: 0, lastAccessed: null });
    expect(repo.history(m.id)).toMatchObject([{ version: 1, action: 'create', actor: 'extractor', before: null, after: { content: '我喜欢喝咖啡' }, reason: 'extract:add' }]);
    for (const q of ['咖啡', '饮品', 'coffee', 'preference']) expect(matches(q)).toBe(1);
  });

  it.each([
    ['content', { content: '我喜欢喝拿铁' }, ['拿铁'], ['喝咖啡']],
    ['tags', { tags: ['早餐'] }, ['早餐'], ['饮品']],
    ['key', { key: 'preference.food.latte' }, ['latte'], ['coffee']],
  ] satisfies [string, Partial<MemorySnapshot>, string[], string[]][])('a change of %s re-indexes the memory and is one history entry', async (_field, patch, found, gone) => {
    const { repo, matches } = await setup();
    const m = repo.insert({ ...base, value: null }, { actor: 'extractor' });
    const changed = repo.change(m.id, patch, { action: 'update', actor: 'user', reason: 'edit' });
    expect(changed.version).toBe(2);
    for (const q of found) expect(matches(q)).toBe(1);
    for (const q of gone) expect(matches(q)).toBe(0);
    expect(repo.history(m.id).map((h) => [h.version, h.action, h.actor])).toEqual([
      [2, 'update', 'user'],
      [1, 'create', 'extractor'],
    ]);
    expect(matches('preference')).toBe(1);
  });

  it('a patch that changes nothing writes nothing', async () => {
    const { repo } = await setup();
    const m = repo.insert(base, { actor: 'user' });
    const same = repo.change(m.id, { content: base.content, tags: [...base.tags] }, { action: 'update', actor: 'user' });
    expect(same.version).toBe(1);
    expect(repo.history(m.id)).toHaveLength(1);
  });

  it('a permanent delete removes the index row and the history', async () => {
    const { t, repo, matches } = await setup();
    const m = repo.insert(base, { actor: 'user' });
    repo.remove(m.id);
    expect(matches('咖啡')).toBe(0);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_history')?.n).toBe(0);
    expect(() => repo.remove(m.id)).toThrow(/No memory/);
  });

  it('findMany keeps the order asked for and skips what does not exist', async () => {
    const { repo } = await setup();
    const a = repo.insert(base, { actor: 'user' });
    const b = repo.insert({ ...base, key: 'preference.food.tea', content: '我喜欢喝茶' }, { actor: 'user' });
    expect(repo.findMany([b.id, 'missing', a.id, b.id]).map((m) => m.id)).toEqual([b.id, a.id]);
  });
});
