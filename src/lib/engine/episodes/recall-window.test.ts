/**
 * Episode recall's window (store/episode-recall-query.ts RANK_WINDOW) counts the asked project's live matches
 * (issue 17, 003 情景记忆召回). It used to count the newest matches of every project, compressed ones too, and keep
 * the asked project's afterwards: a small story next to a big novel whose newer episodes held the window lost its
 * own matches — recall by text returned nothing for it. Through the protocol call, with the default window.
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { RANK_WINDOW } from '../store/episode-recall-query';

const record = async (t: TestEngine, projectId: string, text: string) => {
  const e = expectOk(await t.engine.call('episode.record', { skillId: 'continue', projectId, input: text, candidates: [text], selectedIndex: 0 })).episode;
  t.clock.advance(1_000);
  return e;
};

/** A small story's three older episodes about the lighthouse keeper, then `crowd` newer matching ones in `crowdIn`. */
async function smallStoryThenCrowd(opts: { crowdInOwnProject: boolean }) {
  const t = await createTestEngine();
  const small = expectOk(await t.engine.call('project.create', { name: 'small story' }));
  const novel = expectOk(await t.engine.call('project.create', { name: 'big novel' }));
  const own = [];
  for (const text of ['the lighthouse keeper climbs the stairs', 'a storm over the lighthouse', 'the keeper mends the lamp at night']) own.push(await record(t, small.id, text));
  const crowdProject = opts.crowdInOwnProject ? small.id : novel.id;
  const crowd = [];
  for (let i = 0; i < RANK_WINDOW + 20; i++) crowd.push((await record(t, crowdProject, `the lighthouse keeper of chapter ${i}`)).id);
  return { t, small, own, crowd };
}

const query = async (t: TestEngine, projectId: string) => expectOk(await t.engine.call('episode.query', { projectId, text: 'lighthouse keeper' }));

describe("episode recall's window counts the asked project's live matches", () => {
  it("a project's older matches are recalled by text when another project holds more than the window of newer matches", { timeout: 60_000 }, async () => {
    const { t, small, own } = await smallStoryThenCrowd({ crowdInOwnProject: false });
    const res = await query(t, small.id);
    expect(res.degraded).toBe(false);
    // All three of its own, and nothing of the other project's (no scene type asked: text similarity alone chose them).
    expect(res.items.map((i) => i.episode.id).sort()).toEqual(own.map((e) => e.id).sort());
    const best = res.items[0]!;
    expect(best.episode.inputContext).toBe('the lighthouse keeper climbs the stairs');
    expect(best.why.similarity).toBe(1);
    expect(best.why.sceneMatch).toBe(false);
    expect(best.why.matchedTerms).toEqual(expect.arrayContaining(['lighthouse', 'keeper']));
    for (const item of res.items) expect(item.why.similarity).toBeGreaterThan(0);
  });

  it("a project's older live matches are recalled by text when more than the window of its newer matches are compressed", { timeout: 60_000 }, async () => {
    const { t, small, own, crowd } = await smallStoryThenCrowd({ crowdInOwnProject: true });
    const ownIds = own.map((e) => e.id);
    // Compressed but still in the text index: what a reindex or an import leaves (they index a compressed episode's
    // summary; here its text stays, the case where the compressed rows match the query).
    t.driver.transaction(() => t.driver.run('UPDATE episodes SET compressed = 1 WHERE project_id = ? AND id NOT IN (?, ?, ?)', [small.id, ...ownIds]));
    expect(t.driver.get<{ n: number }>('SELECT count(*) AS n FROM episodes WHERE compressed = 1')?.n).toBe(crowd.length);
    expect(t.driver.get<{ n: number }>('SELECT count(*) AS n FROM episodes_fts WHERE episodes_fts MATCH ?', ['lighthouse'])?.n).toBe(own.length - 1 + crowd.length);
    const res = await query(t, small.id);
    expect(res.degraded).toBe(false);
    expect(res.items.map((i) => i.episode.id).sort()).toEqual([...ownIds].sort());
    expect(res.items[0]?.why.similarity).toBe(1);
    expect(res.items[0]?.why.matchedTerms).toEqual(expect.arrayContaining(['lighthouse', 'keeper']));
  });
});
