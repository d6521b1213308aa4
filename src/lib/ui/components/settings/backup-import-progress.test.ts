import { describe, expect, it } from 'vitest';
import { ok } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import { applyPreviewed, PROGRESS_EVERY_MS, shownProgress } from './backup-import-flow';

/** Issue 16: an apply runs in slices in the DB worker; the page shows how far it is while it runs, and only then. */
describe('import apply progress', () => {
  it('asks how far the apply is while it runs and reports it; nothing after it ends', async () => {
    let rowsDone = 0;
    let applied = false;
    const asked: string[] = [];
    const engine = {
      call: async (method: string) => {
        asked.push(method);
        if (method === 'backup.importApply') {
          await new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS * 3.5));
          applied = true;
          return ok({ token: 't', mode: 'merge', tables: {}, conflicts: [], conflictsTotal: 0, filesPending: 0, resumed: false });
        }
        if (method === 'backup.importProgress') return ok({ state: applied ? 'applied' : 'applying', rowsDone: (rowsDone += 100), totalRows: 1000 });
        return ok({ add: 0, update: 0, skip: 0, conflict: 0, removed: 0, incoming: 0 });
      },
    } as unknown as EngineCaller;
    const seen: number[] = [];
    const out = await applyPreviewed(engine, { token: 't', mode: 'merge' }, (p) => seen.push(p.rowsDone));
    expect(out.ok).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const after = seen.length;
    await new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS * 2));
    expect(seen).toHaveLength(after);
    expect(asked.at(-1)).toBe('backup.importFiles');
  });

  it("shows a replace's removal of the old rows while it runs, then the file's rows", () => {
    const removing = { state: 'applying', rowsDone: 0, totalRows: 500, phase: 'removal', removal: { rowsDone: 120, totalRows: 900 } } as const;
    expect(shownProgress(removing)).toEqual({ rowsDone: 120, totalRows: 900, removing: true });
    const writing = { ...removing, rowsDone: 40, phase: 'rows', removal: { rowsDone: 900, totalRows: 900 } } as const;
    expect(shownProgress(writing)).toEqual({ rowsDone: 40, totalRows: 500, removing: false });
    // A merge (no removal), or an engine that does not say its phase: the rows.
    expect(shownProgress({ state: 'applying', rowsDone: 7, totalRows: 10 })).toEqual({ rowsDone: 7, totalRows: 10, removing: false });
  });
});
