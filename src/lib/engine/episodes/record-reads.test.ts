/**
 * What one episode.record reads (issue 17: p95 ≤ 5 ms at 10,000 episodes): the distillation trigger counts new
 * episodes only up to the batch size, and the chapter is checked by its project without reading its text.
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../testing';
import { createEpisodeRepo } from '../store/episode-repo';
import { BATCH_EPISODES } from './outcome';

describe('episode.record reads only what it needs', () => {
  it('countAfter with a cap stops counting there; without one it counts every later episode', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    for (let i = 0; i < 7; i++) expectOk(await t.engine.call('episode.record', { skillId: 'continue', projectId: project.id, input: `passage ${i}`, candidates: ['x'], selectedIndex: 0 }));
    const repo = createEpisodeRepo({ driver: t.driver, clock: t.clock, ids: () => 'unused' });
    expect(repo.countAfter(0)).toBe(7);
    expect(repo.countAfter(0, 5)).toBe(5);
    expect(repo.countAfter(0, 50)).toBe(7);
    const third = t.driver.get<{ rid: number }>('SELECT rid FROM episodes ORDER BY rid LIMIT 1 OFFSET 2')?.rid as number;
    expect(repo.countAfter(third, 3)).toBe(3);
    expect(repo.countAfter(third)).toBe(4);
    expect(BATCH_EPISODES).toBeGreaterThan(7);
  });

  it('a chapter of another project, or no chapter at all, is still refused with the field named', async () => {
    const t = await createTestEngine();
    const a = expectOk(await t.engine.call('project.create', { name: 'a' }));
    const b = expectOk(await t.engine.call('project.create', { name: 'b' }));
    const doc = expectOk(await t.engine.call('document.create', { projectId: b.id, title: 'ch', content: '他走了。' }));
    const before = t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes')?.n;
    const other = await t.engine.call('episode.record', { skillId: 'continue', projectId: a.id, documentId: doc.id, input: 'x', candidates: ['y'], selectedIndex: 0 });
    expect(other.ok ? null : other.error.code).toBe('INVALID_ARGUMENT');
    const missing = await t.engine.call('episode.record', { skillId: 'continue', projectId: a.id, documentId: 'no-such-chapter', input: 'x', candidates: ['y'], selectedIndex: 0 });
    expect(missing.ok ? null : [missing.error.code, missing.error.message]).toEqual(['NOT_FOUND', 'No document with that `documentId`.']);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes')?.n).toBe(before);
    const mine = expectOk(await t.engine.call('episode.record', { skillId: 'continue', projectId: b.id, documentId: doc.id, input: 'x', candidates: ['y'], selectedIndex: 0 }));
    expect(mine.episode.chapterId).toBe(doc.id);
  });
});
