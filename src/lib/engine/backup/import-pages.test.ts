import { describe, expect, it } from 'vitest';
import type { SqlDriver } from '../store/driver';
import { expectOk } from '../testing';
import { createImportService, IMPORT_PAGE_BUDGET } from './import-service';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, exportText } from './testing';

/**
 * Issue 16 item 5: import apply's slices are bounded by the pages they write, as the reindex's — its first slice and
 * the first slice of each table included (before, the apply had no page budget: its slices ran 20 ms of writes,
 * 53–100 pages a COMMIT at 100,000 turns in the browser). Node counts no OPFS pages; here each row written stands
 * for a page (`run` calls, counted), so the apply's slices are measured in the unit its budget counts.
 */
describe('import apply writes at most its page budget a transaction (issue 16)', () => {
  it('every slice writes at most the budget plus a step or two, the first one step', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    await fillEveryTable(a);
    const s = expectOk(await a.engine.call('session.create', {}));
    for (let i = 0; i < 300; i++) expectOk(await a.engine.call('message.append', { sessionId: s.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i} parseConfig 登录超时` }));
    const text = await exportText(a.engine);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    let writes = 0;
    const driver: SqlDriver = { ...b.driver, run: (sql, p) => (writes++, b.driver.run(sql, p)) };
    const perSlice: number[] = [];
    // A clock that moves 1 ms each time it is read: the slices end alike on any machine (on the wall clock, a quiet
    // machine ran more light steps into the slice where they turned heavy).
    let tick = 0;
    const imports = createImportService({
      env: { driver, clock: b.clock, ids: () => 'import-test', log: b.log },
      files: b.files,
      pagesWritten: () => writes,
      applySlices: { budgetMs: 20, now: () => ++tick },
    });
    const preview = await imports.preview({ file: new Blob([text]), mode: 'merge' });
    const apply = imports.apply(preview.token, 'merge');
    const written = driver.transaction(() => apply.write());
    // Each of the apply's transactions (its slices; the checkpoint wrapper passes them on): the rows it wrote.
    const transaction = driver.transaction.bind(driver);
    driver.transaction = <T,>(fn: () => T): T => {
      const before = writes;
      try {
        return transaction(fn);
      } finally {
        perSlice.push(writes - before);
      }
    };
    const result = await apply.then(written);
    const messages = b.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n ?? 0;
    expect(messages).toBeGreaterThanOrEqual(300);
    expect(result.tables.messages.add).toBeGreaterThanOrEqual(300);
    // The most one step wrote: a slice of that step alone is the first of the apply.
    const oneStep = perSlice[0]!;
    expect(oneStep).toBeGreaterThan(0);
    expect(perSlice.length).toBeGreaterThan(10);
    for (const n of perSlice) expect(n).toBeLessThanOrEqual(IMPORT_PAGE_BUDGET + 2 * oneStep);
  }, 60_000);
});
