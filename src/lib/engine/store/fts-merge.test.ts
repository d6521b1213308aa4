import { describe, expect, it } from 'vitest';
import { createBackupTestEngine, ftsDigest } from '../backup/testing';
import { fillEveryTable } from '../backup/test-fill';
import { createEngine } from '../engine';
import { expectOk } from '../testing';
import type { SqlDriver } from './driver';
import { automergeOff, FTS_AUTOMERGE_DEFAULT, MERGE_EVERY_STEPS, storedAutomerge, type FtsTable } from './fts-merge';
import { reindexInSlices } from './fts-reindex-slices';
import { migrations } from './migrations';

/**
 * Issue 16: the reindex rewrote every full-text row with FTS5's automerge on, so segments were merged inside the
 * slices' COMMITs (3,177 ms at a million turns). Now automerge is off during the pass, merging is a bounded step
 * of its own, and automerge is back on at the end — or at the next open, when the pass was cut short.
 */
const FTS: FtsTable[] = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];
const STEPS_PER_SLICE = 3;
const BATCH = 10; // rows a reindex step rewrites (fts-reindex-slices.ts)

async function filled(turns = 80) {
  const t = await createBackupTestEngine();
  const f = await fillEveryTable(t);
  for (let i = 0; i < turns; i++) {
    expectOk(await t.engine.call('message.append', { sessionId: f.sessionIds[i % 2] as string, role: 'user', content: `turn ${i}: parseConfig 登录超时 src/app-${i % 7}.ts` }));
  }
  return t;
}

type Slice = { rows: number; merges: number; automerge: (number | null)[] };

function spied(driver: SqlDriver, onSql: (sql: string) => void): SqlDriver {
  return {
    ...driver,
    run: (sql, p) => (onSql(sql), driver.run(sql, p)),
    all: (sql, p) => (onSql(sql), driver.all(sql, p)),
    get: (sql, p) => (onSql(sql), driver.get(sql, p)),
  };
}

const reopen = (t: Awaited<ReturnType<typeof filled>>) =>
  createEngine({ ...t.engine.env, log: t.log }, migrations);

describe('reindex with FTS5 merging in bounded steps (issue 16)', () => {
  it('turns automerge off for the pass, merges in bounded steps of their own, and sets it back at the end', async () => {
    const t = await filled();
    const before = ftsDigest(t.driver);
    let tick = 0;
    let rows = 0;
    let merges = 0;
    const slices: Slice[] = [];
    const driver = spied(t.driver, (sql) => {
      if (/^DELETE FROM \w+_fts WHERE rowid/.test(sql)) rows++;
      if (sql.includes("'merge'")) merges++;
    });
    const report = await reindexInSlices(driver, {
      budgetMs: STEPS_PER_SLICE,
      now: () => ++tick,
      onSlice: () => {
        slices.push({ rows, merges, automerge: FTS.map((f) => storedAutomerge(t.driver, f)) });
        rows = 0;
        merges = 0;
      },
    });
    expect(report.messages).toBeGreaterThan(80);
    expect(slices.length).toBeGreaterThan(5);
    for (const s of slices) {
      // A slice is at most three steps: three batches of rows, or three bounded merges, or a mix.
      expect(s.rows + s.merges * BATCH).toBeLessThanOrEqual(STEPS_PER_SLICE * BATCH);
    }
    // Off while rows were rewritten (every slice but the last), merged along the way and at the end, then FTS5's default.
    for (const s of slices.slice(0, -1)) expect(s.automerge.some((v) => v === 0)).toBe(true);
    expect(slices.reduce((n, s) => n + s.merges, 0)).toBeGreaterThanOrEqual(Math.floor(report.messages / BATCH / MERGE_EVERY_STEPS));
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_DEFAULT));
    // The same index as before: every term in the same documents as often.
    expect(ftsDigest(t.driver)).toEqual(before);
  });

  it('a reindex cut short leaves automerge off; the next open sets it back, and a new reindex finishes the job', async () => {
    const t = await filled(40);
    let slices = 0;
    const dying: SqlDriver = {
      ...t.driver,
      transaction: (fn) =>
        t.driver.transaction(() => {
          const r = fn();
          if (++slices === 3) throw new Error('the worker died in this slice');
          return r;
        }),
    };
    let tick = 0;
    await expect(reindexInSlices(dying, { budgetMs: STEPS_PER_SLICE, now: () => ++tick })).rejects.toThrow('died');
    // The slices that committed turned it off, and nothing set it back.
    expect(storedAutomerge(t.driver, 'messages_fts')).toBe(0);
    reopen(t);
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_DEFAULT));
    expect(t.log.lines.some((l) => l.event === 'fts.automerge-restored')).toBe(true);
    await reindexInSlices(t.driver);
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_DEFAULT));
    expectOk(await t.engine.call('search.messages', { query: 'parseConfig' }));
  });

  it('an open leaves automerge alone where nothing turned it off', async () => {
    const t = await filled(0);
    automergeOff(t.driver, 'episodes_fts');
    reopen(t);
    expect(storedAutomerge(t.driver, 'episodes_fts')).toBe(FTS_AUTOMERGE_DEFAULT);
    // Set back to the default: an index that never had it set stays unset on the next open.
    const unset = FTS.filter((f) => f !== 'episodes_fts').map((f) => storedAutomerge(t.driver, f));
    reopen(t);
    expect(FTS.filter((f) => f !== 'episodes_fts').map((f) => storedAutomerge(t.driver, f))).toEqual(unset);
    expect(unset.every((v) => v === null)).toBe(true);
  });
});
