import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine';
import { createTestEngine, expectOk } from '../testing';
import { macrotaskTurns } from '../admission';
import type { SqlDriver } from './driver';
import { FTS_AUTOMERGE_DEFAULT, FTS_AUTOMERGE_ENGINE, FTS_TABLES, storedAutomerge } from './fts-merge';
import { keepSegmentsMerged } from './fts-merge-keeper';
import { migrations } from './migrations';

/**
 * Issue 19: with FTS5's automerge on, a person's write whose COMMIT crossed FTS5's 64-leaf mark merged 64 × levels
 * pages there (an episode.record of 316 WAL pages, 78.8 ms in the lifecycle benchmark). Now automerge is off from
 * the engine's open and the keeper merges in bounded pieces in tasks of their own, after the calls already queued.
 */

/** The segments of `table` (ids), from its `_idx` table: a row per leaf page that starts a term. */
const segments = (driver: SqlDriver, table = 'messages_fts'): number[] =>
  driver.all<{ segid: number }>(`SELECT DISTINCT segid FROM ${table}_idx ORDER BY segid`).map((r) => r.segid);

/** A message body of ~`words` distinct words: a segment of several leaf pages, as a long reply or episode makes. */
const body = (i: number, words = 2400) => Array.from({ length: words }, (_, w) => `w${i}x${w}`).join(' ');

/** One full-text row in a transaction of its own, as a person's write commits it (no engine call: no keeper task). */
const write = (driver: SqlDriver, i: number) => driver.transaction(() => driver.run('INSERT INTO messages_fts (rowid, body, extra, symbols) VALUES (?, ?, ?, ?)', [1000 + i, body(i), '', '']));

const integrityOk = (driver: SqlDriver) => {
  for (const t of FTS_TABLES) driver.run(`INSERT INTO ${t} (${t}) VALUES ('integrity-check')`);
};

describe('FTS5 segments are merged between calls, never in a person’s COMMIT (issue 19)', () => {
  it('the engine opens with automerge off on every index, and a write’s COMMIT only adds its own segment', async () => {
    const t = await createTestEngine();
    expect(FTS_TABLES.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS_TABLES.map(() => FTS_AUTOMERGE_ENGINE));
    // 15 writes of ~7 leaf pages each: past FTS5's 64-leaf automerge mark (where the old COMMIT merged), below its
    // crisis merge (16 segments on a level). Each COMMIT adds one segment and removes none.
    let seen = segments(t.driver);
    for (let i = 0; i < 15; i++) {
      write(t.driver, i);
      const now = segments(t.driver);
      expect(seen.every((s) => now.includes(s))).toBe(true);
      expect(now.length).toBe(seen.length + 1);
      seen = now;
    }
  });

  it('merges in bounded pieces of tasks of their own after the calls already queued, keeping the segment count bounded', async () => {
    const t = await createTestEngine();
    const order: string[] = [];
    const merges: string[] = [];
    const spied: SqlDriver = { ...t.driver, run: (sql, p) => (sql.includes("'merge'") && merges.push(sql), t.driver.run(sql, p)) };
    const keeper = keepSegmentsMerged(spied, { tables: ['messages_fts'] });
    const turn = macrotaskTurns();
    let most = 0;
    for (let i = 0; i < 60; i++) {
      write(t.driver, i);
      // A call reached the worker before the write answered: it runs before the keeper's task.
      const queued = turn().then(() => order.push(`call ${i}`));
      const before = merges.length;
      keeper.wrote();
      // Nothing merged inside the write's call: the task waits for its turn.
      expect(merges.length).toBe(before);
      await queued;
      await new Promise((r) => setTimeout(r, 0));
      if (merges.length > before) order.push(`merged after ${i}`);
      most = Math.max(most, segments(t.driver).length);
    }
    // Every merge came after the call queued before it.
    for (const [k, o] of order.entries()) if (o.startsWith('merged after')) expect(order[k - 1]).toBe(`call ${o.slice(13)}`);
    expect(keeper.pieces).toBeGreaterThan(5);
    // FTS5's 'merge' merges a level once it holds 4 (usermerge) segments: far below its crisis merge of 16.
    expect(most).toBeLessThanOrEqual(8);
    // Without the keeper, the same writes leave a segment each (until a crisis merge at 16).
    const u = await createTestEngine();
    for (let i = 0; i < 15; i++) write(u.driver, i);
    expect(segments(u.driver).length).toBe(15);
  });

  it('an engine’s writes are merged by its keeper; after a merge cut short the index is sane on reopen and carried on', async () => {
    const t = await createTestEngine();
    const session = expectOk(await t.engine.call('session.create', { title: 's' }));
    for (let i = 0; i < 24; i++) expectOk(await t.engine.call('message.append', { sessionId: session.id, role: 'user', content: body(i, 300) }));
    // Let the tasks the writes asked for run out.
    for (let i = 0; i < 200; i++) await new Promise((r) => setTimeout(r, 0));
    expect(segments(t.driver).length).toBeLessThan(8);

    // A merge cut short: a full merge begun (FTS5 stores it in the index), one bounded piece, then the worker died
    // mid-piece (its transaction rolled back) and the engine was closed no further.
    t.driver.run("INSERT INTO messages_fts (messages_fts, rank) VALUES ('merge', -1)");
    const died = () =>
      t.driver.transaction(() => {
        t.driver.run("INSERT INTO messages_fts (messages_fts, rank) VALUES ('merge', 1)");
        throw new Error('the worker died mid-piece');
      });
    expect(died).toThrow('died');
    integrityOk(t.driver);
    expect(expectOk(await t.engine.call('search.messages', { query: 'w3x7' })).total).toBe(1);
    // Reopened: automerge still off, the index checks out, and the next write's keeper carries the merge to one segment.
    const again = createEngine({ ...t.engine.env, log: t.log }, migrations);
    expect(storedAutomerge(t.driver, 'messages_fts')).toBe(FTS_AUTOMERGE_ENGINE);
    expectOk(await again.call('message.append', { sessionId: session.id, role: 'user', content: body(99, 300) }));
    for (let i = 0; i < 400; i++) await new Promise((r) => setTimeout(r, 0));
    integrityOk(t.driver);
    expect(segments(t.driver).length).toBeLessThanOrEqual(2);
    expect(expectOk(await again.call('search.messages', { query: 'w99x5' })).total).toBe(1);
    expect(expectOk(await again.call('search.messages', { query: 'w3x7' })).total).toBe(1);
  });

  it('commits a piece at synchronous NORMAL (no flush of its own) and leaves the connection at FULL', async () => {
    const t = await createTestEngine();
    t.driver.exec('PRAGMA synchronous = FULL');
    const level = () => t.driver.get<{ synchronous: number }>('PRAGMA synchronous')?.synchronous;
    const atMerge: (number | undefined)[] = [];
    const spied: SqlDriver = { ...t.driver, run: (sql, p) => (sql.includes("'merge'") && atMerge.push(level()), t.driver.run(sql, p)) };
    const tasks: (() => void)[] = [];
    const keeper = keepSegmentsMerged(spied, { tables: ['messages_fts'], schedule: (run) => tasks.push(run) });
    for (let i = 0; i < 6; i++) write(t.driver, i);
    keeper.wrote();
    while (tasks.length) tasks.shift()?.();
    expect(keeper.pieces).toBeGreaterThan(0);
    expect(atMerge.length).toBeGreaterThan(0);
    expect(atMerge.every((v) => v === 1)).toBe(true);
    expect(level()).toBe(2);
  });

  it('runs no task after close', async () => {
    const t = await createTestEngine();
    const tasks: (() => void)[] = [];
    const keeper = keepSegmentsMerged(t.driver, { schedule: (run) => tasks.push(run) });
    for (let i = 0; i < 5; i++) write(t.driver, i);
    keeper.wrote();
    keeper.wrote();
    expect(tasks).toHaveLength(1); // one task asked for at a time
    keeper.close();
    tasks.shift()?.();
    expect(keeper.pieces).toBe(0);
    expect(segments(t.driver)).toHaveLength(5);
  });
});

describe('the Node hosts keep FTS5’s own merging (EngineEnv.ftsMerging)', () => {
  it('an engine opened with automerge merging sets it back on where a browser engine left it off, runs no keeper task, and a reindex puts it back as it found it', async () => {
    const t = await createTestEngine();
    expect(FTS_TABLES.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS_TABLES.map(() => FTS_AUTOMERGE_ENGINE));
    const node = createEngine({ ...t.engine.env, ftsMerging: 'automerge' }, migrations);
    expect(FTS_TABLES.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS_TABLES.map(() => FTS_AUTOMERGE_DEFAULT));
    const session = expectOk(await node.call('session.create', { title: 'node' }));
    for (let i = 0; i < 3; i++) expectOk(await node.call('message.append', { sessionId: session.id, role: 'user', content: body(i, 200) }));
    const turn = macrotaskTurns();
    for (let i = 0; i < 3; i++) await turn();
    expect(node.upkeepChanges()).toBe(0);
    expectOk(await node.call('maintenance.reindex', {}));
    expect(FTS_TABLES.map((f) => storedAutomerge(t.driver, f))).toEqual(FTS_TABLES.map(() => FTS_AUTOMERGE_DEFAULT));
  });

  it('a browser engine’s merge pieces are counted as upkeep, not as changes a view shows', async () => {
    const t = await createTestEngine();
    const session = expectOk(await t.engine.call('session.create', { title: 'browser' }));
    for (let i = 0; i < 6; i++) expectOk(await t.engine.call('message.append', { sessionId: session.id, role: 'user', content: body(i, 1200) }));
    const turn = macrotaskTurns();
    for (let i = 0; i < 40; i++) await turn();
    expect(t.engine.upkeepChanges()).toBeGreaterThan(0);
  });
});
