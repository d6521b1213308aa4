/**
 * episodes_fts stays merged as episodes are recorded one at a time (issue 17). Every episode.record commits one
 * FTS5 segment; recall's ranking statement seeks each query phrase in every segment, so a pile of segments makes
 * episode.query slower as the store grows. Since issue 19 FTS5's automerge is off and the engine's merge keeper
 * (store/fts-merge-keeper.ts) merges them a bounded piece at a time in tasks of their own between calls — never in
 * the record's COMMIT. Counted as segments, never timed (bench/speed/episode-merge-probe.ts measured the policies:
 * docs/decisions.md).
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../testing';
import { FTS_AUTOMERGE_ENGINE, storedAutomerge } from '../store/fts-merge';

const RECORDS = 120;

async function recordAll(opts: { keeper: boolean }) {
  const t = await createTestEngine();
  const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
  // The control: no merging at all (FTS5's 'crisismerge' would still merge a level at 16 segments).
  if (!opts.keeper) t.driver.run("INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('crisismerge', 1000)");
  for (let i = 0; i < RECORDS; i++) {
    expectOk(await t.engine.call('episode.record', { skillId: 'continue', projectId: project.id, input: `第${i}章 passage ${i} about the harbour`, candidates: [`他走进港口 ${i}`], selectedIndex: 0 }));
    // Calls reach the worker as messages, so the keeper's task gets its turn between them. The control never yields
    // a turn: its records come one after another in microtasks, and the keeper's task waits behind all of them.
    if (opts.keeper) await new Promise((r) => setTimeout(r, 0));
  }
  const segments = t.driver.get<{ n: number }>('SELECT count(DISTINCT segid) AS n FROM episodes_fts_idx')?.n ?? 0;
  return { t, segments };
}

describe('episodes_fts stays merged as episodes are recorded', () => {
  it(`${RECORDS} records one at a time leave far fewer segments than records, with automerge off`, async () => {
    const { t, segments } = await recordAll({ keeper: true });
    // A few levels of up to automerge-1 segments each, plus the merges in progress (12 here): an eighth of the records at most.
    expect(segments).toBeGreaterThan(0);
    expect(segments).toBeLessThanOrEqual(RECORDS / 8);
    expect(storedAutomerge(t.driver, 'episodes_fts')).toBe(FTS_AUTOMERGE_ENGINE);
    // Recall still finds the text through the merged segments.
    const found = expectOk(await t.engine.call('episode.query', { text: 'harbour passage 7', limit: 5 }));
    expect(found.items.length).toBeGreaterThan(0);
  });

  it('the count above is what merging does: with merging off the same records leave a segment each', async () => {
    const { segments } = await recordAll({ keeper: false });
    expect(segments).toBeGreaterThanOrEqual(RECORDS);
  });
});
