import { describe, expect, it } from 'vitest';
import type { ExportScope } from '../../domain/backup';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { memoryProjectFileStore } from '../files/project-file-store';
import type { SqlDriver } from '../store/driver';
import { migrations } from '../store/migrations';
import { loadSqlite3, openWasmDatabase } from '../store/open-wasm';
import { T0, expectOk } from '../testing';
import { createExportService } from './export-service';
import { REGISTRY } from './registry';
import { fillEveryTable } from './test-fill';
import { drainExport, type BackupTestEngine } from './testing';

/**
 * Issue 16: the stepwise export start took 581 s instead of 1.6 s at 100,000 turns because one table's pages were
 * not index range seeks: symbol_index was paged by (symbol, turn_id) on a table whose primary key is
 * (turn_id, symbol), so every page of 256 rows scanned and sorted the whole table (quadratic in the table).
 * Nothing about the file or the slices showed it. These tests look at what SQLite does instead: the plan of every
 * page statement an export runs, and the work (SQLite VM instructions) a whole export costs at N and 4N turns.
 */

/** An engine like createBackupTestEngine's, with the SQLite handle (to count VM instructions). */
async function engineWithHandle() {
  const clock = fixedClock(T0);
  const log = memoryLogger();
  const opened = await openWasmDatabase({ persistent: false, log });
  const files = memoryProjectFileStore(clock);
  const engine = createEngine({ driver: opened.driver, clock, ids: sequentialIds('t'), log, storage: opened.storage, startedAt: clock.now(), files }, migrations);
  const t: BackupTestEngine = { engine, clock, log, driver: opened.driver, files };
  return { t, sqlite3: await loadSqlite3(), pointer: opened.db.pointer as number };
}

async function addTurns(t: BackupTestEngine, sessionIds: string[], from: number, to: number) {
  for (let i = from; i < to; i++)
    expectOk(
      await t.engine.call('message.append', {
        sessionId: sessionIds[i % sessionIds.length] as string,
        role: 'user',
        content: `turn ${i}: parseConfig${i % 13} 登录超时 src/app-${i % 7}.ts OrderService${i % 5}.handle`,
      }),
    );
}

/** Runs `begin` and every chunk of an export with `driver`. */
async function runExport(t: BackupTestEngine, driver: SqlDriver, scope: ExportScope) {
  const service = createExportService({ env: { ...t.engine.env, driver }, files: t.files, beginSlices: { pageRows: 16 } });
  const started = await service.begin(scope);
  return { started, ...(await drainExport(service, started.exportId, 4_000)) };
}

/** A driver that asks SQLite for the plan of every statement the first time it runs (temp tables exist then). */
function explaining(driver: SqlDriver) {
  const plans = new Map<string, string[]>();
  const explain = (sql: string, params: unknown) => {
    if (plans.has(sql) || !/^\s*(SELECT|INSERT)/i.test(sql)) return;
    plans.set(
      sql.replace(/\s+/g, ' '),
      driver.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never).map((r) => r.detail),
    );
  };
  const spy: SqlDriver = {
    ...driver,
    run: (sql, p) => (explain(sql, p), driver.run(sql, p)),
    all: (sql, p) => (explain(sql, p), driver.all(sql, p)),
    get: (sql, p) => (explain(sql, p), driver.get(sql, p)),
  };
  return { spy, plans };
}

const TABLE_NAMES = new Set(REGISTRY.map((e) => e.spec.name as string));
/** A page: it reads at most a page of rows. Bounded: it starts after the last key of the page before. */
const isPage = (sql: string) => /\bLIMIT\b|\bOFFSET\b/.test(sql);
const isBounded = (sql: string) => /\) > \(\$a0|rowid > [$?]|\bk > [$?]/.test(sql);

describe('export pages are index range seeks (issue 16)', () => {
  it.each<[string, (f: Awaited<ReturnType<typeof fillEveryTable>>) => ExportScope]>([
    ['the whole store', () => ({ kind: 'all' })],
    ['a project', (f) => ({ kind: 'project', id: f.projectId })],
    ['a conversation', (f) => ({ kind: 'session', id: f.sessionIds[0] as string })],
  ])('%s: no page statement sorts in a temp b-tree, and no page after the first scans its table', async (_, scopeOf) => {
    const { t } = await engineWithHandle();
    const f = await fillEveryTable(t);
    await addTurns(t, f.sessionIds.slice(0, 2), 0, 90);
    const { spy, plans } = explaining(t.driver);
    await runExport(t, spy, scopeOf(f));

    const pages = [...plans].filter(([sql]) => isPage(sql));
    expect(pages.length).toBeGreaterThan(20);
    const sorted = pages.filter(([, plan]) => plan.some((l) => l.includes('USE TEMP B-TREE FOR ORDER BY')));
    expect(sorted.map(([sql, plan]) => `${sql}\n  ${plan.join('\n  ')}`)).toEqual([]);
    const scans = pages.filter(([sql, plan]) => isBounded(sql) && plan.some((l) => TABLE_NAMES.has(/^SCAN (\w+)$/.exec(l)?.[1] ?? '')));
    expect(scans.map(([sql, plan]) => `${sql}\n  ${plan.join('\n  ')}`)).toEqual([]);

    // Not vacuous: the symbol rows (the table that went wrong) were read in more than one page, each a seek on
    // the primary key.
    const symbolPages = pages.filter(([sql]) => /FROM symbol_index\b/.test(sql) && isBounded(sql));
    expect(symbolPages.length).toBeGreaterThan(0);
    for (const [, plan] of symbolPages) expect(plan).toContainEqual(expect.stringMatching(/^SEARCH symbol_index USING PRIMARY KEY \(\(turn_id,symbol\)>\(\?,\?\)\)/));
  });

  it('the export start does about 4× the work at 4× the turns, not 16×', async () => {
    const work = async (turns: number) => {
      const { t, sqlite3, pointer } = await engineWithHandle();
      const f = await fillEveryTable(t);
      await addTurns(t, f.sessionIds.slice(0, 2), 0, turns);
      let ticks = 0;
      // One tick per 100 SQLite VM instructions, whatever the machine's speed. (Only `begin`: a chunk's pieces end
      // after PIECE_MS too, so how often a chunk re-reads its page depends on the machine; its plans are checked above.)
      const service = createExportService({ env: t.engine.env, files: t.files, beginSlices: { pageRows: 16 } });
      sqlite3.capi.sqlite3_progress_handler(pointer, 100, () => (ticks++, 0), 0);
      const started = await service.begin({ kind: 'all' });
      sqlite3.capi.sqlite3_progress_handler(pointer, 0, 0, 0);
      service.cancel(started.exportId);
      return { ticks, rows: started.totalRows };
    };
    const small = await work(150);
    const large = await work(600);
    expect(large.rows / small.rows).toBeGreaterThan(3);
    // Linear: the work grows as the rows do (with symbol_index paged off its primary key this ratio was 3.4× the rows': 12.3 against 3.6).
    expect(large.ticks / small.ticks).toBeLessThan(1.25 * (large.rows / small.rows));
  });
});
