import { describe, expect, it } from 'vitest';
import { createBackupTestEngine, ftsDigest } from '../backup/testing';
import { fillEveryTable } from '../backup/test-fill';
import { createEngine } from '../engine';
import { expectOk } from '../testing';
import type { SqlDriver } from './driver';
import { createMergePacer, FTS_AUTOMERGE_DEFAULT, FTS_AUTOMERGE_ENGINE, storedAutomerge, type FtsTable } from './fts-merge';
import { REINDEX_ROWS_PER_MERGE, reindexInSlices } from './fts-reindex-slices';
import { migrations } from './migrations';

/**
 * Issue 16: the reindex rewrote every full-text row with FTS5's automerge on, so segments were merged inside the
 * slices' COMMITs (3,177 ms at a million turns). Now automerge is off during the pass, merging is a bounded step
 * of its own. Since issue 19 automerge is off for good (the engine sets it off at every open; fts-merge-keeper.ts
 * merges between calls), so a pass leaves it off at its end too.
 */
const FTS: FtsTable[] = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];
const STEPS_PER_SLICE = 3;
const ROWS_PER_STEP = 1; // rows a reindex step rewrites (fts-reindex-slices.ts): a slice overruns its budget by one row at most

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
  it('keeps automerge off for the pass, merges in bounded steps of their own, and leaves it off at the end', async () => {
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
    // The report names its slowest slices and what they held (at most three one-row steps each here).
    expect(report.slowSlices?.length).toBe(5);
    for (const s of report.slowSlices ?? []) expect(s.steps).toBeLessThanOrEqual(STEPS_PER_SLICE);
    for (const s of slices) {
      // A slice is at most three steps: three rows, or three bounded merges, or a mix.
      expect(s.rows + s.merges * ROWS_PER_STEP).toBeLessThanOrEqual(STEPS_PER_SLICE * ROWS_PER_STEP);
    }
    // Off while rows were rewritten, merged along the way and at the end, and still off.
    for (const s of slices) expect(s.automerge.every((v) => v === FTS_AUTOMERGE_ENGINE)).toBe(true);
    expect(slices.reduce((n, s) => n + s.merges, 0)).toBeGreaterThanOrEqual(Math.floor(report.messages / REINDEX_ROWS_PER_MERGE));
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_ENGINE));
    // The same index as before: every term in the same documents as often.
    expect(ftsDigest(t.driver)).toEqual(before);
  });

  it('a reindex cut short leaves automerge off, as the next open does, and a new reindex finishes the job', async () => {
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
    expect(storedAutomerge(t.driver, 'messages_fts')).toBe(FTS_AUTOMERGE_ENGINE);
    reopen(t);
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_ENGINE));
    await reindexInSlices(t.driver);
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_ENGINE));
    expectOk(await t.engine.call('search.messages', { query: 'parseConfig' }));
  });

  it('an open turns automerge off on every index that has it on (a database from before issue 19), once', async () => {
    const t = await filled(0);
    // What an older version left: FTS5's default, set back after its passes.
    for (const f of FTS) t.driver.run(`INSERT INTO ${f} (${f}, rank) VALUES ('automerge', ${FTS_AUTOMERGE_DEFAULT})`);
    const turnedOff = () => t.log.lines.filter((l) => l.event === 'fts.automerge-set').length;
    const before = turnedOff();
    reopen(t);
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_ENGINE));
    expect(turnedOff()).toBe(before + 1);
    // Already off: the next open only reads.
    reopen(t);
    expect(turnedOff()).toBe(before + 1);
  });
});

describe('createMergePacer: one pacing for every pass that writes full-text rows (issue 16)', () => {
  const merged = (driver: SqlDriver) => {
    const tables: string[] = [];
    return { tables, driver: spied(driver, (sql) => void (sql.includes("'merge'") && tables.push(sql.match(/INTO (\w+)/)?.[1] as string))) };
  };

  it('merges once every `every` steps: the index the pass names, or the indexes in turn', async () => {
    const t = await filled(10);
    const m = merged(t.driver);
    const pacer = createMergePacer(m.driver, ['messages_fts', 'memories_fts'], { every: 3 });
    const named = Array.from({ length: 9 }, () => pacer.during('memories_fts'));
    // Steps 3, 6 and 9 were merges (the pass writes nothing in them); the others were the pass's own.
    expect(named).toEqual([false, false, true, false, false, true, false, false, true]);
    expect(m.tables).toEqual(['memories_fts', 'memories_fts', 'memories_fts']);
    m.tables.length = 0;
    for (let i = 0; i < 6; i++) pacer.during();
    expect(m.tables).toEqual(['messages_fts', 'memories_fts']);
    expect(storedAutomerge(t.driver, 'messages_fts')).toBe(0);
  });

  it('a pass resumed past its rows merges each index to the end with automerge off, and leaves it off', async () => {
    const t = await filled(40);
    const m = merged(t.driver);
    // A fresh pacer whose first call is finish(): the pass was cut short while merging at the end.
    const pacer = createMergePacer(m.driver, FTS, { pages: 1 });
    let calls = 0;
    const offWhileMerging: boolean[] = [];
    while (pacer.finish()) {
      calls++;
      offWhileMerging.push(FTS.some((f) => storedAutomerge(t.driver, f) === 0));
    }
    expect(calls).toBeGreaterThan(0);
    expect(offWhileMerging.every(Boolean)).toBe(true);
    // Every index was merged (in order) and automerge is still off; a further call has nothing to do.
    expect([...new Set(m.tables)]).toEqual(FTS);
    expect(FTS.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS.map(() => FTS_AUTOMERGE_ENGINE));
    expect(pacer.finish()).toBe(false);
  });

  it('does nothing for a pass that writes no full-text rows', async () => {
    const t = await filled(0);
    const m = merged(t.driver);
    const pacer = createMergePacer(m.driver, [], { every: 1 });
    expect([pacer.during(), pacer.during(), pacer.finish()]).toEqual([false, false, false]);
    expect(m.tables).toEqual([]);
    expect(FTS.map((f) => storedAutomerge(t.driver, f)).every((v) => v === FTS_AUTOMERGE_ENGINE)).toBe(true);
  });
});
