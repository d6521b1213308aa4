/**
 * What one episode.record reads (issue 17: p95 ≤ 5 ms at 10,000 episodes): the distillation trigger counts new
 * episodes only up to the batch size, and the chapter is checked by its project without reading its text.
 */
import { describe, expect, it, vi } from 'vitest';
import { createTestEngine, expectOk } from '../testing';
import { createEpisodeRepo } from '../store/episode-repo';
import { BATCH_EPISODES } from './outcome';
import { reclaimBeforeEpisodeWrite } from '../lifecycle/reclaim';

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

  it('the episode a record returns is the stored row, not a copy that drifts from it', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    const doc = expectOk(await t.engine.call('document.create', { projectId: project.id, title: 'ch', content: '他走了。' }));
    const inputs = [
      { skillId: 'continue', projectId: project.id, documentId: doc.id, input: '“走吧。”他说。', candidates: ['她点头。', '她没有回答。'], selectedIndex: 1, finalText: '她没有回答，转身走了。', explicit: '短一点' },
      { skillId: 'polish', input: 'The rain fell.', candidates: ['Rain fell hard.'], selectedIndex: -1 },
    ];
    for (const input of inputs) {
      const { episode } = expectOk(await t.engine.call('episode.record', input));
      expect(episode).toEqual(expectOk(await t.engine.call('episode.get', { id: episode.id })));
    }
  });

  it('episode_counts follows every way an episode comes and goes: record, reclaim at the cap, a move, a project deleted', async () => {
    const t = await createTestEngine();
    const a = expectOk(await t.engine.call('project.create', { name: 'a' }));
    const b = expectOk(await t.engine.call('project.create', { name: 'b' }));
    const counted = () => Object.fromEntries(t.driver.all<{ k: string; n: number }>('SELECT project_key AS k, n FROM episode_counts WHERE n > 0 ORDER BY k').map((r) => [r.k, r.n]));
    const actual = () => Object.fromEntries(t.driver.all<{ k: string; n: number }>("SELECT COALESCE(project_id, '') AS k, COUNT(*) AS n FROM episodes GROUP BY k ORDER BY k").map((r) => [r.k, r.n]));
    const record = async (projectId?: string) => expectOk(await t.engine.call('episode.record', { skillId: 'continue', ...(projectId ? { projectId } : {}), input: 'x', candidates: ['y'], selectedIndex: 0 }));
    for (let i = 0; i < 4; i++) await record(a.id);
    for (let i = 0; i < 2; i++) await record(b.id);
    await record();
    expect(counted()).toEqual({ '': 1, [a.id]: 4, [b.id]: 2 });
    // The cap check reads the kept count: at a cap of 4, a's next write first makes room.
    t.driver.exec('BEGIN');
    expect(reclaimBeforeEpisodeWrite(t.driver, t.clock, a.id, 4).evicted).toBe(1);
    expect(reclaimBeforeEpisodeWrite(t.driver, t.clock, b.id, 4)).toEqual({ expired: 0, evicted: 0 });
    t.driver.exec('COMMIT');
    expect(counted()).toEqual({ '': 1, [a.id]: 3, [b.id]: 2 });
    t.driver.run('UPDATE episodes SET project_id = ? WHERE project_id IS NULL', [b.id]);
    expect(counted()).toEqual({ [a.id]: 3, [b.id]: 3 });
    expectOk(await t.engine.call('project.delete', { id: a.id }));
    expect(counted()).toEqual(actual());
    expect(counted()).toEqual({ [b.id]: 3 });
  });
});

describe('episode.record is quiet (issue 19)', () => {
  it('a record writes no log line and nothing to the console, whatever it was given', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    const doc = expectOk(await t.engine.call('document.create', { projectId: project.id, title: 'ch', content: '他走了。' }));
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level));
    try {
      const before = t.log.lines.length;
      expectOk(await t.engine.call('episode.record', { skillId: 'continue', projectId: project.id, documentId: doc.id, input: '“走吧。”他说。', candidates: ['她点头。'], selectedIndex: 0, explicit: '短一点' }));
      expectOk(await t.engine.call('episode.record', { skillId: 'polish', input: 'The rain fell.', candidates: ['Rain fell hard.'], selectedIndex: -1 }));
      // The engine's logger is the console in the DB worker (consoleLogger('db')): a line here is a console line there.
      expect(t.log.lines.slice(before)).toEqual([]);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
