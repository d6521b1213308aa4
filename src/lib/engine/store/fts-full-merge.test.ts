/**
 * Issue 17: episode recall's ranking statement reads every segment of episodes_fts. The lifecycle's decay pass merges
 * the index into one segment when enough was recorded since the last time (fts-merge.ts createFullMerge), a bounded
 * piece a step, resumed where a pass cut short left it — and what recall answers stays the same.
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { createEpisodeRecallQuery } from './episode-recall-query';
import { createFullMerge, fullMergeDue, segmentPages } from './fts-merge';

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(' ');

/** Episodes `from` … `from + n - 1`, one per transaction (as episode.record writes them), each with words no other has. */
async function record(t: TestEngine, projectId: string, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const own = Array.from({ length: 600 }, (_, k) => `w${i}k${k}`).join(' ');
    const text = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} parse${i} config${i % 97} module${i % 13} 登录超时${i % 5} build${i} step${i} ${own}`;
    expectOk(await t.engine.call('episode.record', { skillId: 'continue', projectId, input: text, candidates: [text], selectedIndex: 0 }));
    t.clock.advance(1_000);
  }
}

/** Any shape is due with these: what they test is the merge, not the signal. */
const ALWAYS = { share: 0.01, minPages: 1 };

/**
 * An index merged into one segment after BASE episodes, then `since` more recorded: with ~600 words an episode, each
 * adds about a page, so SINCE of them are well past FULL_MERGE_MIN_PAGES and FULL_MERGE_SHARE, FEW well short of it.
 */
async function recorded(since: number): Promise<{ t: TestEngine; projectId: string }> {
  const t = await createTestEngine();
  const projectId = expectOk(await t.engine.call('project.create', { name: 'p' })).id;
  await record(t, projectId, 0, BASE);
  run(t, createFullMerge(t.driver, 'episodes_fts', ALWAYS));
  expect(segmentPages(t.driver, 'episodes_fts')).toHaveLength(1);
  await record(t, projectId, BASE, since);
  return { t, projectId };
}
const BASE = 80;
const SINCE = 50;
const FEW = 5;

const changes = (t: TestEngine) => t.driver.get<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0;
const segments = (t: TestEngine) => segmentPages(t.driver, 'episodes_fts').length;
const QUERIES = ['alpha parse3 config5', 'golf module7', 'module4 hotel', 'zulu tango step40', 'kilo'];
const ranks = (t: TestEngine, projectId: string) => {
  const q = createEpisodeRecallQuery(t.driver);
  return QUERIES.map((m) => q.ranked(m.split(' ').join(' OR '), projectId, 60).map((r) => ({ id: r.row.id, rank: r.rank })));
};

/** Steps `merge` until it is done (or `max` steps); the rows each step wrote. */
function run(t: TestEngine, merge: { step(): boolean }, max = Infinity): number[] {
  const wrote: number[] = [];
  for (let more = true; more && wrote.length < max; ) {
    const before = changes(t);
    more = t.driver.transaction(() => merge.step());
    wrote.push(changes(t) - before);
  }
  return wrote;
}

describe('episodes_fts merged into one segment in the background (fts-merge.ts createFullMerge)', () => {
  it('the decay pass merges the index into one segment once enough was recorded, and episode.query answers the same', async () => {
    const a = await recorded(SINCE);
    const b = await recorded(SINCE);
    expect(segments(b.t)).toBeGreaterThan(1);
    expect(fullMergeDue(b.t.driver, 'episodes_fts')).toBe(true);
    const before = ranks(b.t, b.projectId);
    expect(before.filter((r) => r.length > 0).length).toBe(QUERIES.length);
    expectOk(await b.t.engine.call('lifecycle.run', { phases: ['decay'] }));
    expect(segments(b.t)).toBe(1);
    expect(fullMergeDue(b.t.driver, 'episodes_fts')).toBe(false);
    const after = ranks(b.t, b.projectId);
    expect(after.map((q) => q.map((r) => r.id))).toEqual(before.map((q) => q.map((r) => r.id)));
    after.forEach((q, i) => q.forEach((r, j) => expect(r.rank).toBeCloseTo(before[i]![j]!.rank, 9)));
    // The whole call, against the twin whose index was left as recorded (episode.query writes recall counts, so each
    // query runs once on each).
    expect(segments(a.t)).toBeGreaterThan(1);
    for (const text of QUERIES) {
      const q = { projectId: a.projectId, text };
      const left = expectOk(await a.t.engine.call('episode.query', q));
      const merged = expectOk(await b.t.engine.call('episode.query', q));
      expect(merged).toEqual(left);
    }
  });

  it('does nothing when little was recorded since the last full merge', async () => {
    const { t, projectId } = await recorded(FEW);
    expect(segments(t)).toBeGreaterThan(1);
    expect(fullMergeDue(t.driver, 'episodes_fts')).toBe(false);
    run(t, createFullMerge(t.driver, 'episodes_fts'));
    expect(segments(t)).toBeGreaterThan(1);
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'] }));
    expect(segments(t)).toBeGreaterThan(1);
    // More recorded: now it is due.
    await record(t, projectId, BASE + FEW, SINCE);
    expect(fullMergeDue(t.driver, 'episodes_fts')).toBe(true);
  });

  it('merges a bounded piece a step, and a merge cut short is carried to its end by the next pass, even where the signal would not start one', async () => {
    const one = await recorded(SINCE);
    const cut = await recorded(SINCE);
    const opts = { pages: 2, ...ALWAYS };
    const whole = run(one.t, createFullMerge(one.t.driver, 'episodes_fts', opts));
    expect(segments(one.t)).toBe(1);
    const total = whole.reduce((x, y) => x + y, 0);
    expect(whole.length).toBeGreaterThan(10);
    // Each step writes a few pages' rows (the pages, the structure record, the _idx rows), never most of the merge.
    expect(Math.max(...whole)).toBeLessThan(total / 5);
    // A pass cut short after 4 steps; the next pass resumes the merge in progress.
    const first = run(cut.t, createFullMerge(cut.t.driver, 'episodes_fts', opts), 4);
    expect(first).toHaveLength(4);
    expect(segments(cut.t)).toBeGreaterThan(1);
    // The next pass carries the merge in progress to its end, even with a signal that would never start one.
    const rest = run(cut.t, createFullMerge(cut.t.driver, 'episodes_fts', { pages: opts.pages, share: 2 }));
    expect(segments(cut.t)).toBe(1);
    expect(first.length + rest.length).toBeLessThanOrEqual(whole.length + 2);
  });
});
