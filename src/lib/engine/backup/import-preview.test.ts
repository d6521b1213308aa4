import { describe, expect, it } from 'vitest';
import type { ExportScope, ImportMode, TableCounts } from '../../domain/backup';
import { expectOk } from '../testing';
import { createImportService } from './import-service';
import { fillEveryTable, type Filled } from './test-fill';
import { createBackupTestEngine, dumpDatabase, exportText, type BackupTestEngine } from './testing';

/**
 * Issue 16: the preview counts what an import would do without writing (import-dry-run.ts) and in slices; its
 * counts must be the apply's own — new rows, updates, skips, conflicts, removals, per table — whatever the file
 * and the database it lands in.
 */
async function previewThenApply(b: BackupTestEngine, text: string, mode: ImportMode) {
  const before = await dumpDatabase(b);
  const preview = expectOk(await b.engine.call('backup.importPreview', { file: new Blob([text]), mode }));
  // The preview wrote nothing.
  expect(await dumpDatabase(b)).toEqual(before);
  const result = expectOk(await b.engine.call('backup.importApply', { token: preview.token, mode }));
  return { preview, result };
}

const sum = (tables: Record<string, TableCounts>, outcome: keyof TableCounts) => Object.values(tables).reduce((n, c) => n + c[outcome], 0);

interface Case {
  name: string;
  mode: ImportMode;
  scope?: (a: Filled) => ExportScope;
  /** What the receiving database holds before the file arrives. */
  receiver: (b: BackupTestEngine, fileOf: () => Promise<string>, a: Filled) => Promise<void>;
  /** Outcomes this case must exercise (so the comparison is not between two zeros). */
  exercises: (keyof TableCounts)[];
}

const edit = (b: BackupTestEngine) => {
  // Rows that now differ from the file's: a message's text (its symbol rows are cleared on update), a memory,
  // a conversation's title, with times before and after the file's.
  b.driver.run("UPDATE messages SET content = content || ' (edited)' WHERE id = (SELECT MIN(id) FROM messages)");
  b.driver.run("UPDATE messages SET content = content || ' (edited later)', created_at = created_at + 1 WHERE id = (SELECT MAX(id) FROM messages)");
  b.driver.run("UPDATE memories SET content = content || ' (edited)', updated_at = updated_at + 60000 WHERE rid = (SELECT MIN(rid) FROM memories)");
  b.driver.run("UPDATE memories SET content = content || ' (older)', updated_at = updated_at - 60000 WHERE rid = (SELECT MAX(rid) FROM memories)");
  b.driver.run("UPDATE sessions SET title = title || ' (renamed)' WHERE rowid = (SELECT MIN(rowid) FROM sessions)");
};

const CASES: Case[] = [
  { name: 'merge into a new device', mode: 'merge', receiver: async () => {}, exercises: ['add'] },
  {
    name: 'merge into the same data (everything skipped)',
    mode: 'merge',
    receiver: async (b, fileOf) => void (await previewThenApply(b, await fileOf(), 'merge')),
    exercises: ['skip'],
  },
  { name: 'merge two devices (ids collide)', mode: 'merge', receiver: async (b) => void (await fillEveryTable(b, ' (B)')), exercises: ['add', 'conflict'] },
  {
    name: 'merge into data edited since (updates, conflicts, cleared symbol rows)',
    mode: 'merge',
    receiver: async (b, fileOf) => {
      await previewThenApply(b, await fileOf(), 'merge');
      edit(b);
    },
    exercises: ['skip', 'conflict'],
  },
  { name: 'replace everything', mode: 'replace', receiver: async (b) => void (await fillEveryTable(b, ' (B)')), exercises: ['add', 'removed'] },
  {
    name: 'replace one project whose conversations moved and changed since (updates that clear symbol rows)',
    mode: 'replace',
    scope: (a) => ({ kind: 'project', id: a.projectId }),
    receiver: async (b, fileOf, a) => {
      await previewThenApply(b, await fileOf(), 'merge');
      edit(b);
      // Moved out of the project, the conversations outlive its removal: the file's versions update them, and
      // their messages' new text clears the symbol rows the file then brings again.
      const moved = b.driver.all<{ id: string }>('SELECT id FROM sessions WHERE project_id = ?', [a.projectId]).map((r) => r.id);
      expect(moved.length).toBeGreaterThan(0);
      b.driver.run('UPDATE sessions SET project_id = NULL WHERE project_id = ?', [a.projectId]);
      for (const id of moved) b.driver.run("UPDATE messages SET content = content || ' parseConfig (moved)' WHERE session_id = ?", [id]);
      await fillEveryTable(b, ' (B)');
    },
    exercises: ['removed', 'update'],
  },
  {
    name: 'replace one conversation',
    mode: 'replace',
    scope: (a) => ({ kind: 'session', id: a.sessionIds[0] as string }),
    receiver: async (b, fileOf) => void (await previewThenApply(b, await fileOf(), 'merge')),
    exercises: ['removed'],
  },
];

describe('import preview = the apply it announces (issue 16)', () => {
  for (const c of CASES) {
    it(`${c.name}: the same counts per table and the same conflicts`, async () => {
      const a = await createBackupTestEngine({ idPrefix: 'a' });
      const filled = await fillEveryTable(a);
      const fileOf = () => exportText(a.engine, c.scope?.(filled) ?? { kind: 'all' });
      const b = await createBackupTestEngine({ idPrefix: 'b' });
      await c.receiver(b, fileOf, filled);
      const { preview, result } = await previewThenApply(b, await fileOf(), c.mode);
      for (const outcome of c.exercises) expect(sum(result.tables, outcome), outcome).toBeGreaterThan(0);
      if (c.exercises.includes('update')) expect(result.tables.symbol_index.add, 'symbol rows written again').toBeGreaterThan(0);
      expect(preview.tables).toEqual(result.tables);
      expect(preview.conflicts).toEqual(result.conflicts);
      expect(preview.conflictsTotal).toBe(result.conflictsTotal);
    }, 60_000);
  }

  it('counts in slices of bounded work with the worker free in between, and says how far it is', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    await fillEveryTable(a);
    const s = expectOk(await a.engine.call('session.create', {}));
    for (let i = 0; i < 120; i++) expectOk(await a.engine.call('message.append', { sessionId: s.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i} parseConfig` }));
    const text = await exportText(a.engine);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    await fillEveryTable(b, ' (B)');
    // A clock that moves 1 ms each time it is read: a slice of budget 4 ms takes at most 4 steps (5 rows each).
    let t = 0;
    const slices: number[] = [];
    const imports = createImportService({
      env: { driver: b.driver, clock: b.clock, ids: () => 'import-test', log: b.log },
      files: b.files,
      previewSlices: { budgetMs: 4, now: () => ++t, onSlice: (rowsDone) => slices.push(rowsDone) },
    });
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 0);
    const previewing = imports.preview({ file: new Blob([text]), mode: 'merge' });
    const seen: string[] = [];
    // While it counts, its progress can be read by token (a preview of another mode runs the same counting).
    const first = await previewing;
    const again = imports.preview({ token: first.token, mode: 'replace' });
    await new Promise((r) => setTimeout(r, 0));
    seen.push(imports.progress(first.token).state);
    const second = await again;
    clearInterval(ticking);
    const rowsTotal = Object.values(first.tables).reduce((n, c) => n + c.incoming, 0);
    const perSlice = slices.map((n, i) => n - (i === 0 || slices[i - 1] === rowsTotal ? 0 : (slices[i - 1] as number)));
    expect(slices.filter((n) => n === rowsTotal)).toHaveLength(2);
    expect(rowsTotal).toBeGreaterThan(200);
    expect(Math.max(...perSlice)).toBeLessThanOrEqual(20);
    // Timers ran while it counted: the worker answered other messages between slices.
    expect(ticks).toBeGreaterThan(0);
    expect(seen).toEqual(['previewing']);
    expect(imports.progress(first.token).state).toBe('staged');
    expect(sum(second.tables, 'removed')).toBeGreaterThan(0);
  }, 60_000);
});
