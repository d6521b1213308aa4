/**
 * episode.query's per-call work trimmed for issue 17 (episode.query p95 within 2× memory.retrieve's): the why is
 * written for the 3–5 winners only, and the project check is read in the same statement as the walk plan. Neither
 * may change what recall answers: the same episodes, in the same order, with the same why, and NOT_FOUND for a
 * project that is not there.
 */
import { describe, expect, it, vi } from 'vitest';
import { DAY_MS } from '../../domain/clock';
import { decayScore, decayTier, recallWeight } from '../../domain/lifecycle/decay';
import type { SceneType } from '../../domain/episodes/scene-type';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { keptText, createEpisodeRepo } from '../store/episode-repo';
import { createEpisodeRecallQuery, SET_PLAN_SHARE, type EpisodeScoreRow, type ProjectScope } from '../store/episode-recall-query';
import { RECALL_HALF_LIFE_MS, RECALL_MAX, RECALL_MIN_SCORE, RECALL_WEIGHTS, recallMatch } from './recall';
import type { EpisodeRecallWhy } from './types';

const TEXTS = [
  'the lighthouse keeper climbs the stairs at dawn',
  'a storm over the lighthouse and the harbour wall',
  'the keeper mends the lamp at night',
  'tea with the keeper in the kitchen',
  'the harbour master counts the boats',
  'rain on the cliff path, the lamp flickers',
  'she writes a letter to the lighthouse keeper',
  'the boats come home before the storm',
];
const SCENES: SceneType[] = ['dialogue', 'action', 'description', 'introspection', 'exposition', 'narration'];

/**
 * The former way, kept as the reference: a why for every candidate, sorted by its score, the winners cut from it.
 * Candidates and winners' episodes are read with the same statements recall uses.
 */
function recallBefore(t: TestEngine, q: { projectId: ProjectScope; sceneType?: SceneType; text: string }): { id: string; why: EpisodeRecallWhy }[] {
  const reads = createEpisodeRecallQuery(t.driver);
  const { match, keywords } = recallMatch(q.text);
  const bm25 = new Map<string, number>();
  const pool = new Map<string, EpisodeScoreRow>();
  if (match) for (const hit of reads.ranked(match, q.projectId, 60)) (bm25.set(hit.row.id, -hit.rank), pool.set(hit.row.id, hit.row));
  if (q.sceneType) for (const e of reads.recentOfScene(q.projectId, q.sceneType, 60)) pool.set(e.id, e);
  const best = Math.max(0, ...bm25.values());
  const now = t.clock.now();
  const scored: { row: EpisodeScoreRow; why: Omit<EpisodeRecallWhy, 'matchedTerms'> }[] = [];
  for (const e of pool.values()) {
    const sceneMatch = q.sceneType !== undefined && e.sceneType === q.sceneType;
    const similarity = best > 0 ? Math.round(((bm25.get(e.id) ?? 0) / best) * 1000) / 1000 : 0;
    const ageMs = Math.max(0, now - e.createdAt);
    const decay = decayScore({ createdAt: e.createdAt, lastRecalledAt: e.lastRecalledAt, recallCount: e.recallCount, importance: e.importance, exempt: e.pinned }, now);
    const weight = recallWeight(decayTier(decay), decay);
    if (weight === 0) continue;
    const score =
      weight *
      (RECALL_WEIGHTS.scene * (sceneMatch ? 1 : 0) + RECALL_WEIGHTS.similarity * similarity + RECALL_WEIGHTS.recency * 2 ** (-ageMs / RECALL_HALF_LIFE_MS) + RECALL_WEIGHTS.importance * e.importance);
    scored.push({
      row: e,
      why: { sceneMatch, similarity, ageDays: Math.round((ageMs / DAY_MS) * 10) / 10, importance: e.importance, decay: Math.round(decay * 1000) / 1000, score: Math.round(score * 1000) / 1000 },
    });
  }
  scored.sort((a, b) => b.why.score - a.why.score || b.row.createdAt - a.row.createdAt || (a.row.id < b.row.id ? -1 : 1));
  const winners = scored.filter((s) => s.why.score >= RECALL_MIN_SCORE).slice(0, RECALL_MAX);
  const whole = createEpisodeRepo(t.engine.env).getMany(winners.map((w) => w.row.id));
  return winners.map((w) => {
    const e = whole.find((x) => x.id === w.row.id)!;
    const hay = `${e.inputContext}\n${keptText(e)}`.toLowerCase();
    return { id: w.row.id, why: { ...w.why, matchedTerms: keywords.filter((k) => hay.includes(k.toLowerCase())).slice(0, 8) } };
  });
}

describe('episode.query writes the why for its winners only, and checks the project with the walk plan', () => {
  it('returns the same episodes, in the same order, with the same why as scoring every candidate with its why', { timeout: 60_000 }, async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'the lighthouse' }));
    const other = expectOk(await t.engine.call('project.create', { name: 'elsewhere' }));
    // 48 episodes over 24 days: the newest active, the older decaying (scored by their decay), the oldest out of
    // recall; some recalled since (the age restarts), some pinned (exempt), importances spread, other projects' too.
    for (let i = 0; i < 48; i++) {
      const text = `${TEXTS[i % TEXTS.length]} ${i % 3 === 0 ? 'again' : ''}`.trim();
      const projectId = i % 5 === 4 ? other.id : project.id;
      const e = expectOk(
        await t.engine.call('episode.record', { skillId: 'continue', projectId, input: text, candidates: [text, `${text}, differently`], selectedIndex: i % 2 }),
      ).episode;
      t.driver.run('UPDATE episodes SET scene_type = ?, importance = ?, pinned = ? WHERE id = ?', [SCENES[i % SCENES.length], ((i * 7) % 11) / 10, i % 13 === 0 ? 1 : 0, e.id]);
      if (i % 9 === 0) t.driver.run('UPDATE episodes SET recall_count = 2, last_recalled_at = ? WHERE id = ?', [t.clock.now() + 10 * DAY_MS, e.id]);
      t.clock.advance(DAY_MS / 2);
    }
    let compared = 0;
    let decaying = 0;
    for (const text of ['lighthouse keeper', 'the storm and the boats', 'lamp at night', 'harbour wall', 'a letter', 'nothing like it']) {
      for (const sceneType of [undefined, 'dialogue', 'narration'] as const) {
        for (const projectId of [project.id, other.id]) {
          const res = expectOk(await t.engine.call('episode.query', { projectId, text, ...(sceneType ? { sceneType } : {}) }));
          const got = res.items.map((i) => ({ id: i.episode.id, why: i.why }));
          expect(got).toEqual(recallBefore(t, { projectId, sceneType, text }));
          compared += got.length;
          decaying += got.filter((g) => g.why.decay < 0.7).length;
        }
      }
    }
    // The comparison held something: many winners, decaying ones among them.
    expect(compared).toBeGreaterThan(60);
    expect(decaying).toBeGreaterThan(0);
  });

  it('reads whether the project exists in the same statement as the walk plan, which is the plan the counts give', async () => {
    const t = await createTestEngine();
    const big = expectOk(await t.engine.call('project.create', { name: 'big' }));
    const small = expectOk(await t.engine.call('project.create', { name: 'small' }));
    const empty = expectOk(await t.engine.call('project.create', { name: 'empty' }));
    const rec = async (projectId: string | null) =>
      expectOk(await t.engine.call('episode.record', { skillId: 'continue', ...(projectId ? { projectId } : {}), input: 'the lighthouse', candidates: ['the lighthouse'], selectedIndex: 0 }));
    for (let i = 0; i < 9; i++) await rec(big.id);
    await rec(small.id);
    await rec(null);
    const reads = createEpisodeRecallQuery(t.driver);
    // The former read of the plan, as the reference.
    const planBefore = (p: string | null) => {
      const c = t.driver.get<{ mine: number | null; total: number }>(
        'SELECT (SELECT n FROM episode_counts WHERE project_key = ?) AS mine, (SELECT total(n) FROM episode_counts) AS total',
        [p ?? ''],
      )!;
      return c.total > 0 && (c.mine ?? 0) < SET_PLAN_SHARE * c.total ? 'set' : 'row';
    };
    expect(reads.scope(big.id)).toEqual({ known: true, plan: 'row' });
    expect(reads.scope(small.id)).toEqual({ known: true, plan: 'set' });
    expect(reads.scope(empty.id)).toEqual({ known: true, plan: 'set' });
    expect(reads.scope(null)).toEqual({ known: true, plan: 'set' });
    expect(reads.scope(undefined)).toEqual({ known: true, plan: 'row' });
    expect(reads.scope('no-such-project')).toEqual({ known: false, plan: 'set' });
    for (const p of [big.id, small.id, empty.id, null]) expect(reads.scope(p).plan).toBe(planBefore(p));
    // Deleting the project (its episodes go with it) is seen at once: nothing is cached.
    expectOk(await t.engine.call('project.delete', { id: small.id }));
    expect(reads.scope(small.id)).toEqual({ known: false, plan: 'set' });

    // Through the call: one read for the check and the plan, no separate read of the project.
    const get = vi.spyOn(t.driver, 'get');
    expectOk(await t.engine.call('episode.query', { projectId: big.id, text: 'lighthouse' }));
    const sqls = get.mock.calls.map(([sql]) => sql);
    expect(sqls.filter((s) => /FROM projects/.test(s))).toHaveLength(1);
    expect(sqls.filter((s) => /episode_counts/.test(s))).toHaveLength(1);
    get.mockRestore();
  });

  it('a project that does not exist (or no longer does) is NOT_FOUND on projectId, with or without words to search', async () => {
    const t = await createTestEngine();
    const gone = expectOk(await t.engine.call('project.create', { name: 'gone' }));
    expectOk(await t.engine.call('episode.record', { skillId: 'continue', projectId: gone.id, input: 'the lighthouse', candidates: ['the lighthouse'], selectedIndex: 0 }));
    expectOk(await t.engine.call('project.delete', { id: gone.id }));
    for (const input of [
      { projectId: gone.id, text: 'lighthouse' },
      { projectId: 'never-was', text: 'lighthouse', sceneType: 'dialogue' as const },
      { projectId: 'never-was', text: 'the' },
    ]) {
      const res = await t.engine.call('episode.query', input);
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.error).toMatchObject({ code: 'NOT_FOUND', message: 'No project with that `projectId`.', details: { field: 'projectId' } });
    }
    // No project named, and no project (null): no check, an answer.
    expect(expectOk(await t.engine.call('episode.query', { text: 'lighthouse' })).items).toEqual([]);
    expect(expectOk(await t.engine.call('episode.query', { projectId: null, text: 'lighthouse' })).items).toEqual([]);
  });
});
