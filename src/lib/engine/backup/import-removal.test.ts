import { describe, expect, it } from 'vitest';
import type { SqlDriver } from '../store/driver';
import { expectOk } from '../testing';
import { readImportJournal } from './import-journal';
import { createImportService, IMPORT_PAGE_BUDGET, type ImportProgress } from './import-service';
import { REMOVAL_PAGE_ROWS } from './scope-removal';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, dumpDatabase, exportText, ftsDigest } from './testing';

/**
 * Issue 16 item 5: a replace import removes its scope a page a step, each slice bounded, with progress, and a removal
 * cut short resumes (before, the removal was one DELETE per table inside one slice: at 100,000 turns one long
 * transaction every foreground call waited behind). The database replaces one of its own projects with that
 * project's export after a large conversation was added to it: the end is the database as it was when exported —
 * the file's rows in the project, the conversation gone, the other project and the global rows as they were.
 */
const BIG = 400;

async function setUp() {
  const b = await createBackupTestEngine({ idPrefix: 'b' });
  const filled = await fillEveryTable(b);
  const text = await exportText(b.engine, { kind: 'project', id: filled.projectId });
  const before = await dumpDatabase(b);
  const fts = ftsDigest(b.driver);
  const other = () =>
    b.driver.all('SELECT m.* FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.project_id IS NOT ? ORDER BY m.id', [filled.projectId]);
  const otherBefore = other();
  // The conversation the replace removes: many pages of messages, their full-text and symbol rows.
  const big = expectOk(await b.engine.call('session.create', { projectId: filled.projectId, title: 'big' }));
  for (let i = 0; i < BIG; i++)
    expectOk(await b.engine.call('message.append', { sessionId: big.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: parseConfig 登录超时 in src/app-${i % 17}.ts` }));
  const bigLeft = () => b.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?', [big.id])?.n ?? 0;

  // Each of the service's transactions: the rows its DELETEs took; `failWhen` makes one throw after its work (a worker
  // that dies in that slice: the slice rolls back).
  let deleted = 0;
  const perSlice: number[] = [];
  const progressSeen: ImportProgress[] = [];
  let failWhen: (() => boolean) | null = null;
  const driver: SqlDriver = {
    ...b.driver,
    run: (sql, p) => {
      const r = b.driver.run(sql, p);
      if (sql.startsWith('DELETE FROM ')) deleted += r.changes;
      return r;
    },
  };
  // A clock that moves 1 ms each time it is read: the slices end alike on any machine.
  let tick = 0;
  const imports = createImportService({
    env: { driver, clock: b.clock, ids: () => 'import-test', log: b.log },
    files: b.files,
    // A deleted row stands for a page written (Node counts no OPFS pages).
    pagesWritten: () => deleted,
    applySlices: { budgetMs: 20, now: () => ++tick },
  });
  const preview = await imports.preview({ file: new Blob([text]), mode: 'replace' });
  const transaction = b.driver.transaction.bind(b.driver);
  driver.transaction = <T,>(fn: () => T): T => {
    const before = deleted;
    if (imports.progress(preview.token).state === 'applying') progressSeen.push(structuredClone(imports.progress(preview.token)));
    try {
      return transaction(() => {
        const out = fn();
        if (failWhen?.()) {
          failWhen = null;
          throw new Error('the worker died in this slice');
        }
        return out;
      });
    } finally {
      perSlice.push(deleted - before);
    }
  };
  async function apply() {
    const run = imports.apply(preview.token, 'replace');
    const written = driver.transaction(() => run.write());
    perSlice.length = 0;
    return run.then(written);
  }
  return { b, filled, imports, preview, before, fts, other, otherBefore, bigLeft, perSlice, progressSeen, apply, failIf: (f: () => boolean) => (failWhen = f) };
}

/** The import's files written, its journal gone, and the database as it was when the file was exported: the file's rows, the rest untouched. */
async function expectTheFile(t: Awaited<ReturnType<typeof setUp>>) {
  await t.imports.applyFiles(t.preview.token);
  expect(readImportJournal(t.b.driver)).toBeNull();
  expect(t.bigLeft()).toBe(0);
  expect(t.other()).toEqual(t.otherBefore);
  expect(await dumpDatabase(t.b)).toEqual(t.before);
  expect(ftsDigest(t.b.driver)).toEqual(t.fts);
}

const removedTotal = (tables: Record<string, { removed: number }>) => Object.values(tables).reduce((n, c) => n + c.removed, 0);

describe('a replace import removes its scope in bounded slices (issue 16)', () => {
  it('each slice removes at most its page budget, the progress says how far the removal is, and the end is the file', async () => {
    const t = await setUp();
    const inScope = removedTotal(t.preview.tables);
    expect(inScope).toBeGreaterThan(BIG);
    const result = await t.apply();
    expect(result.resumed).toBe(false);
    expect(removedTotal(result.tables)).toBe(inScope);

    // Many slices removed rows, none more than the budget and a page or two (the old removal: all of them in one).
    const removing = t.perSlice.filter((n) => n > 0);
    expect(removing.length).toBeGreaterThan(inScope / (IMPORT_PAGE_BUDGET + 2 * REMOVAL_PAGE_ROWS));
    for (const n of t.perSlice) expect(n).toBeLessThanOrEqual(IMPORT_PAGE_BUDGET + 2 * REMOVAL_PAGE_ROWS);

    // The progress: the removal first (counted, then rising to its total), then the rows.
    const removal = t.progressSeen.filter((p) => p.phase === 'removal');
    const mid = removal.filter((p) => p.removal && p.removal.rowsDone > 0 && p.removal.rowsDone < p.removal.totalRows);
    expect(mid.length).toBeGreaterThan(3);
    expect(mid.every((p) => p.removal?.totalRows === inScope && p.rowsDone === 0)).toBe(true);
    const done = removal.map((p) => p.removal?.rowsDone ?? 0);
    expect(done).toEqual([...done].sort((x, y) => x - y));
    const firstRows = t.progressSeen.findIndex((p) => p.phase === 'rows');
    expect(firstRows).toBeGreaterThan(t.progressSeen.indexOf(removal.at(-1) as ImportProgress));
    expect(t.progressSeen[firstRows]?.removal).toEqual({ rowsDone: inScope, totalRows: inScope });

    await expectTheFile(t);
  }, 120_000);

  it('a removal cut short resumes when the file is applied again: the file once, the scope removed once, the rest untouched', async () => {
    const t = await setUp();
    // The worker dies in a slice in the middle of the removal: some of the conversation is gone, not all.
    t.failIf(() => t.bigLeft() > 0 && t.bigLeft() < BIG - REMOVAL_PAGE_ROWS);
    await expect(t.apply()).rejects.toThrow('the worker died');
    const left = t.bigLeft();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(BIG);
    expect(readImportJournal(t.b.driver)).toMatchObject({ mode: 'replace', removed: false });
    // No row of the file was written yet: the project's sessions are the old ones, less none.
    expect(t.b.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE project_id = ?', [t.filled.projectId])?.n).toBeGreaterThan(0);

    const again = await t.apply();
    expect(again.resumed).toBe(true);
    // Only what the first apply left was removed this time.
    expect(again.tables.messages.removed).toBeLessThan(t.preview.tables.messages.removed);
    await expectTheFile(t);
  }, 120_000);

  it('a journal whose removal committed (as the one-step removal wrote it) is resumed without removing again', async () => {
    const t = await setUp();
    // Cut after the removal committed, in the first slice that wrote a row of the file.
    const projectBack = () => (t.b.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM projects WHERE id = ?', [t.filled.projectId])?.n ?? 0) > 0;
    t.failIf(() => readImportJournal(t.b.driver)?.removed === true && projectBack());
    await expect(t.apply()).rejects.toThrow('the worker died');
    expect(readImportJournal(t.b.driver)).toMatchObject({ mode: 'replace', removed: true });
    const again = await t.apply();
    expect(again.resumed).toBe(true);
    expect(removedTotal(again.tables)).toBe(0);
    await expectTheFile(t);
  }, 120_000);
});
