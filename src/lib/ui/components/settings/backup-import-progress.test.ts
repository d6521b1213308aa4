import { describe, expect, it } from 'vitest';
import { ok } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import { applyPreviewed, previewFile, PROGRESS_EVERY_MS, readPercent, shownProgress } from './backup-import-flow';
import { previewImport } from './import-other-flow';
import { i18n, t } from '../../i18n/i18n.svelte';

/** A fake engine that notes every method asked of it and answers with `answer`. */
function countingEngine(answer: (method: string) => Promise<unknown>) {
  const asked: string[] = [];
  const engine = {
    call: async (method: string) => {
      asked.push(method);
      return answer(method);
    },
  } as unknown as EngineCaller;
  return { engine, asked };
}

/** Issue 16: an apply runs in slices in the DB worker; the page shows how far it is while it runs, and only then. */
describe('import apply progress', () => {
  it('asks how far the apply is while it runs and reports it; nothing after it ends', async () => {
    let rowsDone = 0;
    let applied = false;
    const { engine, asked } = countingEngine(async (method) => {
      if (method === 'backup.importApply') {
        await new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS * 3.5));
        applied = true;
        return ok({ token: 't', mode: 'merge', tables: {}, conflicts: [], conflictsTotal: 0, filesPending: 0, resumed: false });
      }
      if (method === 'backup.importProgress') return ok({ state: applied ? 'applied' : 'applying', rowsDone: (rowsDone += 100), totalRows: 1000 });
      return ok({ add: 0, update: 0, skip: 0, conflict: 0, removed: 0, incoming: 0 });
    });
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

/** Issue 16: the DB worker reads a chosen file in pieces; the page shows how far while it reads, and only then. */
/** A backup file, and an export from another app (issue 16): both are read in the DB worker while the page says how far. */
const flows = [
  {
    name: 'a backup file',
    preview: 'backup.importPreview',
    reading: 'backup.importReading',
    answer: { token: 't', mode: 'merge', tables: {}, conflicts: [], conflictsTotal: 0, file: {}, files: {} },
    run: (engine: EngineCaller, onRead?: (p: number) => void) => previewFile(engine, new Blob(['x']), 'merge', onRead),
  },
  {
    name: 'an export from another app',
    preview: 'import.preview',
    reading: 'import.reading',
    answer: { token: 't', source: 'chatgpt', messages: { incoming: 1, add: 1, skip: 0 }, lorebook: null },
    run: (engine: EngineCaller, onRead?: (p: number) => void) =>
      previewImport(engine, { source: 'auto', files: [{ name: 'conversations.json', file: new File(['x'], 'conversations.json') }] }, onRead),
  },
] as const;

describe.each(flows)('import reading progress: $name', (flow) => {
  function readingEngine(totalBytes: number, pieces: number) {
    let bytesRead = 0;
    let reading = false;
    return countingEngine(async (method) => {
      if (method === flow.preview) {
        reading = true;
        for (let i = 1; i <= pieces; i++) {
          await new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS * 1.2));
          bytesRead = Math.round((totalBytes * i) / pieces);
        }
        reading = false;
        return ok(flow.answer);
      }
      if (method === flow.reading) return ok(reading ? { reading: true, bytesRead, totalBytes } : { reading: false, bytesRead: 0, totalBytes: 0 });
      throw new Error(`unexpected ${method}`);
    });
  }

  it('a read reporting progress is shown in whole percent, rising, and nothing once the preview is back', async () => {
    const { engine, asked } = readingEngine(1_000_000, 4);
    const seen: number[] = [];
    const out = await flow.run(engine, (p) => seen.push(p));
    expect(out.ok).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
    expect(seen.every((p) => Number.isInteger(p) && p >= 0 && p <= 100)).toBe(true);
    const after = seen.length;
    await new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS * 2));
    expect(seen).toHaveLength(after);
    expect(asked.filter((m) => m === flow.preview)).toHaveLength(1);
  });

  it('without a listener the page asks nothing more than the preview', async () => {
    const { engine, asked } = readingEngine(1000, 2);
    expect((await flow.run(engine)).ok).toBe(true);
    expect(asked).toEqual([flow.preview]);
  });
});

describe('import reading progress: the percent and its words', () => {
  it('percent: floored, 100 only at the end, none when nothing is read; the words in both languages', () => {
    expect(readPercent({ reading: false, bytesRead: 0, totalBytes: 0 })).toBeNull();
    expect(readPercent({ reading: true, bytesRead: 0, totalBytes: 3 })).toBe(0);
    expect(readPercent({ reading: true, bytesRead: 999, totalBytes: 1000 })).toBe(99);
    expect(readPercent({ reading: true, bytesRead: 1000, totalBytes: 1000 })).toBe(100);
    expect(readPercent({ reading: true, bytesRead: 0, totalBytes: 0 })).toBe(100);
    const before = i18n.locale;
    try {
      i18n.setLocale('en');
      expect(t('backup:import.readingProgress', { percent: 42 })).toBe('Reading the file: 42 %');
      expect(t('imports:other.readingProgress', { percent: 42 })).toBe('Reading the files: 42 %');
      i18n.setLocale('zh-CN');
      expect(t('backup:import.readingProgress', { percent: 42 })).toBe('正在读取文件：42%');
      expect(t('imports:other.readingProgress', { percent: 42 })).toBe('正在读取文件：42%');
    } finally {
      i18n.setLocale(before);
    }
  });
});
