import { describe, expect, it } from 'vitest';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { memoryProjectFileStore } from '../files/project-file-store';
import type { SqlDriver } from '../store/driver';
import { migrations } from '../store/migrations';
import { openWasmDatabase } from '../store/open-wasm';
import { T0, expectOk } from '../testing';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, dumpDatabase, exportText, ftsDigest, importText } from './testing';

/**
 * Issue 16: an import is applied in short transactions with the worker free in between, says how far it is,
 * and an apply cut short (here: a transaction that fails, as a worker that dies mid-slice would leave it)
 * finishes when the same file is applied again — to the same end as an apply that was never interrupted.
 */
async function engineThatCanFail() {
  const clock = fixedClock(T0);
  const log = memoryLogger();
  const opened = await openWasmDatabase({ persistent: false, log });
  let failAt = -1;
  let count = 0;
  const driver: SqlDriver = {
    ...opened.driver,
    transaction: (fn) =>
      opened.driver.transaction(() => {
        const result = fn();
        if (++count === failAt) throw new Error('the worker died in this slice');
        return result;
      }),
  };
  const files = memoryProjectFileStore(clock);
  const engine = createEngine({ driver, clock, ids: sequentialIds('b'), log, storage: opened.storage, startedAt: clock.now(), files }, migrations);
  return { engine, clock, log, driver: opened.driver, files, failAfter: (n: number) => ((count = 0), (failAt = n)) };
}

async function bigExport(turns: number) {
  const a = await createBackupTestEngine({ idPrefix: 'a' });
  await fillEveryTable(a);
  const s = expectOk(await a.engine.call('session.create', {}));
  for (let i = 0; i < turns; i++) {
    expectOk(await a.engine.call('message.append', { sessionId: s.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: parseConfig 登录超时 in src/app-${i % 17}.ts` }));
  }
  return { a, text: await exportText(a.engine) };
}

describe('import apply in slices (issue 16)', () => {
  it('other calls are answered while a large file is applied, and its progress can be read meanwhile', async () => {
    const { a, text } = await bigExport(400);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    const preview = expectOk(await b.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'merge' }));
    let finished = false;
    const applying = b.engine.call('backup.importApply', { token: preview.token, mode: 'merge' }).finally(() => (finished = true));
    const seen: number[] = [];
    let answeredMeanwhile = 0;
    while (!finished) {
      // Calls reach the worker as messages (macrotasks); here they come one per macrotask too.
      await new Promise((r) => setTimeout(r, 1));
      const p = await b.engine.call('backup.importProgress', { token: preview.token });
      if (p.ok && p.data.state === 'applying') seen.push(p.data.rowsDone);
      if ((await b.engine.call('session.list', {})).ok && !finished) answeredMeanwhile++;
    }
    expectOk(await applying);
    expect(answeredMeanwhile).toBeGreaterThan(1);
    expect(seen.some((n) => n > 0)).toBe(true);
    expect(expectOk(await b.engine.call('backup.importProgress', { token: preview.token })).state).toBe('applied');
    expectOk(await b.engine.call('backup.importFiles', { token: preview.token }));
    expect(await dumpDatabase(b)).toEqual(await dumpDatabase(a));
    expect(ftsDigest(b.driver)).toEqual(ftsDigest(a.driver));
  }, 120_000);

  for (const mode of ['merge', 'replace'] as const) {
    it(`${mode}: an apply cut short mid-way resumes when applied again, and ends as an uninterrupted one`, async () => {
      const { text } = await bigExport(300);
      const clean = await createBackupTestEngine({ idPrefix: 'b' });
      await fillEveryTable(clean, ' (B)');
      await importText(clean.engine, text, mode);

      const b = await engineThatCanFail();
      await fillEveryTable(b, ' (B)');
      const preview = expectOk(await b.engine.call('backup.importPreview', { file: new Blob([text]), mode }));
      b.failAfter(4);
      const cut = await b.engine.call('backup.importApply', { token: preview.token, mode });
      expect(cut).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
      // Part of the file is in (its committed slices), and the journal says where it stands.
      expect(b.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM meta WHERE key = 'backup.import_progress'")?.n).toBe(1);

      b.failAfter(-1);
      const again = expectOk(await b.engine.call('backup.importApply', { token: preview.token, mode }));
      expect(again.resumed).toBe(true);
      expectOk(await b.engine.call('backup.importFiles', { token: preview.token }));
      expect(b.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM meta WHERE key = 'backup.import_progress'")?.n).toBe(0);
      expect(await dumpDatabase(b)).toEqual(await dumpDatabase(clean));
      expect(ftsDigest(b.driver)).toEqual(ftsDigest(clean.driver));
    }, 120_000);
  }
});
