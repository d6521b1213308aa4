import { describe, expect, it } from 'vitest';
import { validateExport } from '../../../domain/backup';
import { fillEveryTable } from '../../../engine/backup/test-fill';
import { createBackupTestEngine, dumpDatabase } from '../../../engine/backup/testing';
import { createCaller } from '../../../engine/client/caller';
import { runExport, type ExportProgress } from './backup-export-flow';
import { applyPreviewed, countRows, failedField, previewAgain, previewFile, totals } from './backup-import-flow';
import type { SaveTarget } from './backup-save';

/** The settings page's flows against a real engine, reached through the same caller the page uses. */
async function setup() {
  const t = await createBackupTestEngine();
  const filled = await fillEveryTable(t);
  let op = 0;
  const engine = createCaller({ call: (req) => t.engine.handle(req) }, () => `op-${String(++op).padStart(6, '0')}`);
  return { t, filled, engine };
}

function memoryTarget(opts: { failOnWrite?: number } = {}) {
  const pieces: string[] = [];
  const state = { closed: false, aborted: false };
  const target: SaveTarget = {
    kind: 'download',
    async write(piece) {
      if (opts.failOnWrite !== undefined && pieces.length === opts.failOnWrite) throw new DOMException('disk full', 'QuotaExceededError');
      pieces.push(typeof piece === 'string' ? piece : await piece.text());
    },
    async close() {
      state.closed = true;
    },
    async abort() {
      state.aborted = true;
    },
  };
  return { target, pieces, state };
}

const temps = (t: Awaited<ReturnType<typeof setup>>['t']) =>
  t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_temp_schema WHERE type = 'table' AND name != 'session_changes'")?.n ?? 0;

describe('export, as the settings page runs it', () => {
  it('writes every piece to the file, reports progress up to 100 %, and closes it', async () => {
    const { engine } = await setup();
    const { target, pieces, state } = memoryTarget();
    const seen: ExportProgress[] = [];
    const outcome = await runExport({ engine, scope: { kind: 'all' }, target, signal: new AbortController().signal, onProgress: (p) => seen.push(p), chunkChars: 16_384 });
    expect(outcome).toMatchObject({ kind: 'done', files: 2 });
    expect(state).toEqual({ closed: true, aborted: false });
    expect(seen.map((p) => p.fraction)).toEqual([...seen.map((p) => p.fraction)].sort((a, b) => a - b));
    expect(seen.at(-1)?.fraction).toBe(1);
    expect(validateExport(JSON.parse(pieces.join(''))).file.tables.memories).toHaveLength(3);
  });

  it('stops when canceled: the engine forgets the export and no file is kept', async () => {
    const { t, engine } = await setup();
    const { target, state } = memoryTarget();
    const controller = new AbortController();
    const outcome = await runExport({
      engine,
      scope: { kind: 'all' },
      target,
      signal: controller.signal,
      onProgress: () => controller.abort(),
      chunkChars: 16_384,
    });
    expect(outcome).toEqual({ kind: 'canceled' });
    expect(state.aborted).toBe(true);
    expect(state.closed).toBe(false);
    expect(temps(t)).toBe(0);
  });

  it('keeps no half file when the disk fails, and frees the engine cursor', async () => {
    const { t, engine } = await setup();
    const { target, state } = memoryTarget({ failOnWrite: 0 });
    const outcome = await runExport({ engine, scope: { kind: 'all' }, target, signal: new AbortController().signal, onProgress: () => {}, chunkChars: 16_384 });
    expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'INTERNAL', message: 'QuotaExceededError' } });
    expect(state.aborted).toBe(true);
    expect(temps(t)).toBe(0);
  });

  it('reports a conversation that no longer exists', async () => {
    const { engine } = await setup();
    const { target, state } = memoryTarget();
    const outcome = await runExport({ engine, scope: { kind: 'session', id: 'gone' }, target, signal: new AbortController().signal, onProgress: () => {} });
    expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'NOT_FOUND' } });
    expect(state.aborted).toBe(true);
  });
});

describe('import, as the settings page runs it', () => {
  it('previews, switches to replace without reading the file again, applies, and counts', async () => {
    const { t, engine } = await setup();
    const { target, pieces } = memoryTarget();
    await runExport({ engine, scope: { kind: 'all' }, target, signal: new AbortController().signal, onProgress: () => {} });
    const file = new Blob(pieces);
    const merge = await previewFile(engine, file, 'merge');
    if (!merge.ok) throw new Error(merge.error.message);
    // Everything is already here: a merge would change nothing.
    const mergeSum = totals(countRows(merge.preview.tables, merge.preview.files));
    expect(mergeSum).toMatchObject({ add: 0, update: 0, removed: 0, conflict: 0 });
    expect(mergeSum.skip).toBe(mergeSum.incoming);
    const replace = await previewAgain(engine, merge.preview.token, 'replace');
    if (!replace.ok) throw new Error(replace.error.message);
    const rows = countRows(replace.preview.tables, replace.preview.files);
    expect(rows.map((r) => r.table)).toContain('files');
    expect(totals(rows).removed).toBeGreaterThan(0);
    const before = await dumpDatabase(t);
    const applied = await applyPreviewed(engine, replace.preview);
    expect(applied.ok).toBe(true);
    if (applied.ok) expect(totals(countRows(applied.result.tables, applied.files)).add).toBe(totals(rows).add);
    expect(await dumpDatabase(t)).toEqual(before);
  });

  it('names the field of a bad file, and a second apply of a used token is refused', async () => {
    const { engine } = await setup();
    const bad = await previewFile(engine, new Blob(['{"format":"engram-export","version":1,"exportedAt":"nope"}']), 'merge');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(failedField(bad.error)).toBe('exportedAt');
    const again = await applyPreviewed(engine, { token: 'import-unknown', mode: 'merge' });
    expect(again).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' }, applied: null });
  });
});
