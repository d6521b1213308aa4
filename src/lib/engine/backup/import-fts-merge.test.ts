import { describe, expect, it } from 'vitest';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { memoryProjectFileStore } from '../files/project-file-store';
import type { SqlDriver } from '../store/driver';
import { FTS_AUTOMERGE_ENGINE, MERGE_EVERY_STEPS, storedAutomerge, type FtsTable } from '../store/fts-merge';
import { migrations } from '../store/migrations';
import { openWasmDatabase } from '../store/open-wasm';
import { T0, expectOk } from '../testing';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, exportText, ftsDigest } from './testing';

/**
 * Issue 16: an import's slices wrote full-text rows with FTS5's automerge on, so segments were merged inside
 * their COMMITs. Now automerge is off while the rows go in, a bounded merge runs every few steps, each index is
 * merged to the end a step at a time, and automerge stays off (the engine's setting since issue 19) — with the
 * same index as an import that merged as it went.
 */
const FTS: FtsTable[] = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];
/** Rows one import step writes (import-apply.ts ROWS_PER_STEP). */
const ROWS_PER_STEP = 5;

async function spiedEngine(onSql: (sql: string) => void) {
  const clock = fixedClock(T0);
  const log = memoryLogger();
  const opened = await openWasmDatabase({ persistent: false, log });
  const d = opened.driver;
  const driver: SqlDriver = {
    ...d,
    run: (sql, p) => (onSql(sql), d.run(sql, p)),
    all: (sql, p) => (onSql(sql), d.all(sql, p)),
    get: (sql, p) => (onSql(sql), d.get(sql, p)),
  };
  const engine = createEngine({ driver, clock, ids: sequentialIds('b'), log, storage: opened.storage, startedAt: clock.now(), files: memoryProjectFileStore(clock) }, migrations);
  return { engine, driver: d, clock, log, files: memoryProjectFileStore(clock) };
}

describe('import apply with FTS5 merging in bounded steps (issue 16)', () => {
  it('turns automerge off while rows go in, merges in bounded steps between them, and leaves it off at the end', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    await fillEveryTable(a);
    const s = expectOk(await a.engine.call('session.create', {}));
    for (let i = 0; i < 200; i++) expectOk(await a.engine.call('message.append', { sessionId: s.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: parseConfig 登录超时 src/app-${i % 13}.ts` }));
    const text = await exportText(a.engine);

    let recording = false;
    const seen: string[] = [];
    const b = await spiedEngine((sql) => recording && seen.push(sql));
    const preview = expectOk(await b.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'merge' }));
    recording = true;
    const applied = expectOk(await b.engine.call('backup.importApply', { token: preview.token, mode: 'merge' }));
    recording = false;
    // It names its slowest slices, slowest first, and what each held (bench:speed lines them up with its waits).
    const slow = applied.slowSlices ?? [];
    expect(slow.length).toBeGreaterThan(0);
    expect(slow.map((x) => x.ms)).toEqual([...slow.map((x) => x.ms)].sort((x, y) => y - x));
    for (const x of slow) expect(x.steps).toBeGreaterThan(0);

    const ftsInsert = (sql: string) => /^INSERT INTO (messages|summaries|memories|episodes)_fts \(rowid/.test(sql);
    const isMerge = (sql: string) => sql.includes("'merge'");
    const firstRow = seen.findIndex(ftsInsert);
    const lastRow = seen.length - 1 - [...seen].reverse().findIndex(ftsInsert);
    expect(firstRow).toBeGreaterThan(0);
    // Off on every index before the first row.
    for (const t of FTS) expect(seen.slice(0, firstRow).some((q) => q.startsWith(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 0)`))).toBe(true);
    // While rows go in: bounded merges between them, never more than MERGE_EVERY_STEPS - 1 steps of rows apart.
    let rowsSinceMerge = 0;
    let merges = 0;
    for (const q of seen.slice(firstRow, lastRow + 1)) {
      if (isMerge(q)) {
        merges++;
        rowsSinceMerge = 0;
      } else if (ftsInsert(q)) rowsSinceMerge++;
      expect(rowsSinceMerge).toBeLessThanOrEqual((MERGE_EVERY_STEPS - 1) * ROWS_PER_STEP);
    }
    expect(merges).toBeGreaterThan(5);
    // After the last row: each index merged to the end; automerge stays off (the engine's setting).
    expect(seen.slice(lastRow).some(isMerge)).toBe(true);
    expect(FTS.map((t) => storedAutomerge(b.driver, t))).toEqual(FTS.map(() => FTS_AUTOMERGE_ENGINE));

    // The same index as the exporting database's, which merged as it went.
    expect(ftsDigest(b.driver)).toEqual(ftsDigest(a.driver));
  }, 120_000);
});
