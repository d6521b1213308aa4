import {
  exportFileName,
  exportHeader,
  MAX_BACKUP_BYTES,
  rowSchema,
  scanJson,
  tooLargeToRestore,
  utf8Length,
  type ExportScope,
  type TableName,
  type TableSpec,
} from '../../domain/backup';
import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';
import { currentVersion } from '../store/migrate';
import { APP_VERSION } from './app-info';
import { REGISTRY, type EngineTable } from './registry';
import { toFileRow } from './row-codec';
import type { ScopeSelection } from './scope-selection';
import { rowidCaps, selectScopeInSteps, sizeScope, type ScopeSteps } from './scope-slices';
import { SLICE_BUDGET_MS, yieldToQueue } from '../store/slices';
import { noteTimeline, timelineRecording } from '../store/worker-timeline';

/**
 * Streaming export: `begin` captures the scope's rows and answers with counts; each `chunk` returns the
 * next piece of the JSON text (about `maxBytes`) and the progress, until `done`. The caller writes the
 * pieces to a file as they come, so neither side ever holds the whole export; `cancel` (or 10 idle
 * minutes) drops the cursor. The concatenated pieces are exactly one export document (format.ts).
 *
 * `begin` sizes the scope and captures its rows in steps of a few hundred rows, the worker free between slices
 * of ~SLICE_BUDGET_MS (scope-slices.ts; issue 16): an export over the limit is refused once its sizing crosses
 * the limit, before anything is selected.
 *
 *   begin ─▶ header ─▶ "projects":[…] ─▶ … ─▶ "kg_facts":[…] ─▶ "files":[…] ─▶ done
 */
export interface ExportStarted {
  exportId: string;
  fileName: string;
  totalRows: number;
  totalFiles: number;
  tables: Record<TableName, number>;
  /** About how large the file will be (UTF-8 bytes); never more than MAX_BACKUP_BYTES. */
  estimatedBytes: number;
}

export interface ExportChunk {
  text: string;
  done: boolean;
  rowsDone: number;
  totalRows: number;
  filesDone: number;
  totalFiles: number;
}

interface Cursor {
  selection: ScopeSelection;
  header: string;
  phase: 'header' | 'tables' | 'files' | 'done';
  table: number;
  /** Where the current table's paging stands: rowid, or the primary key of WITHOUT ROWID tables. */
  after: unknown[] | null;
  firstRow: boolean;
  rowsDone: number;
  totalRows: number;
  files: { projectId: string; path: string; size: number }[];
  fileIndex: number;
  filesWritten: number;
  touchedAt: number;
  /** UTF-8 bytes handed out so far. */
  bytes: number;
}

/** The pieces of one chunk and their length so far. */
class Out {
  readonly parts: string[] = [];
  length = 0;
  push(s: string): void {
    this.parts.push(s);
    this.length += s.length;
  }
  text(): string {
    return this.parts.join('');
  }
}

const PAGE_ROWS = 200;
/** Rows one step of `begin`'s sizing or selection reads. */
const BEGIN_PAGE_ROWS = 256;
/** The longest one export piece may take (a page of rows is read, then rows are encoded until then). */
export const PIECE_MS = 20;
const IDLE_MS = 10 * 60_000;
const MAX_CURSORS = 3;

export function createExportService(deps: {
  env: Pick<EngineEnv, 'driver' | 'clock' | 'ids' | 'log'>;
  files: ProjectFileStore | undefined;
  /** The largest file it writes: what an import accepts (tests lower it). */
  maxBytes?: number;
  /** `begin`'s slices (tests inject a clock that counts steps): budget, clock, page size, and a report per slice. */
  beginSlices?: { budgetMs?: number; now?: () => number; pageRows?: number; onSlice?: (slice: { phase: 'size' | 'select'; examined: number }) => void };
}) {
  const { driver, clock, ids, log } = deps.env;
  const maxBytes = deps.maxBytes ?? MAX_BACKUP_BYTES;
  const cursors = new Map<string, Cursor>();
  const schemas = new Map(REGISTRY.map((e) => [e.spec.name, rowSchema(e.spec as TableSpec)]));
  const now = deps.beginSlices?.now ?? (() => performance.now());
  const budget = deps.beginSlices?.budgetMs ?? SLICE_BUDGET_MS;
  const beginPage = deps.beginSlices?.pageRows ?? BEGIN_PAGE_ROWS;
  /** Bumped when the whole database is replaced: a `begin` in progress must not go on with the new one. */
  let generation = 0;

  /** Runs `steps` to the end in slices of `budget`, yielding between them; `check` after every step. */
  async function runSteps(phase: 'size' | 'select', steps: ScopeSteps, check: () => void): Promise<void> {
    const epoch = generation;
    for (let more = true; more; ) {
      const t0 = now();
      const before = steps.examined;
      do {
        more = steps.step();
        check();
      } while (more && now() - t0 < budget);
      // On the worker's timeline as a job slice (a benchmark's stall probe otherwise saw it as time the worker ran
      // neither a call nor a slice: stall-trace.ts). An injected clock (tests) is not the timeline's.
      if (!deps.beginSlices?.now && timelineRecording()) noteTimeline('slice', t0, now() - t0);
      deps.beginSlices?.onSlice?.({ phase, examined: steps.examined - before });
      if (more) await yieldToQueue();
      if (generation !== epoch)
        throw new EngineError('NOT_FOUND', 'The database was replaced while this export was starting. Start it again.', { field: 'scope' });
    }
  }

  function expireIdle(): void {
    for (const [id, c] of cursors) if (clock.now() - c.touchedAt > IDLE_MS) close(id);
  }

  function close(id: string): boolean {
    const c = cursors.get(id);
    if (!c) return false;
    c.selection.drop();
    cursors.delete(id);
    return true;
  }

  function mustGet(id: string): Cursor {
    const c = cursors.get(id);
    if (!c) throw new EngineError('NOT_FOUND', 'No export with that `exportId` (it finished, was canceled or timed out). Start it again.', { field: 'exportId' });
    c.touchedAt = clock.now();
    return c;
  }

  function checkTarget(scope: ExportScope): void {
    if (scope.kind === 'project' && !driver.get('SELECT 1 FROM projects WHERE id = ?', [scope.id]))
      throw new EngineError('NOT_FOUND', 'No project with that `scope.id`.', { field: 'scope.id' });
    if (scope.kind === 'session' && !driver.get('SELECT 1 FROM sessions WHERE id = ?', [scope.id]))
      throw new EngineError('NOT_FOUND', 'No conversation with that `scope.id`.', { field: 'scope.id' });
  }

  /** The projects whose setting files an export carries: those it owns (a conversation owns none). */
  async function listFiles(selection: ScopeSelection): Promise<Cursor['files']> {
    const store = deps.files;
    if (!store || selection.scope.kind === 'session') return [];
    const projectIds =
      selection.scope.kind === 'project'
        ? [selection.scope.id]
        : driver.all<{ id: string }>(`SELECT id FROM projects WHERE ${selection.filter('projects')} ORDER BY id`).map((r) => r.id);
    const out: Cursor['files'] = [];
    for (const projectId of projectIds) for (const e of await store.list(projectId)) out.push({ projectId, path: e.path, size: e.size });
    return out;
  }

  /**
   * The next page of the current table after `c.after`, in key order: at most PAGE_ROWS rows of the table are read,
   * and `rows` are those in scope. `last` is the key of the last row read, `more` whether the table goes on.
   * A WITHOUT ROWID table is read by a range of its primary key with the scope tested on each row (a column, not
   * a WHERE): a filter in the WHERE let SQLite drive the page from the captured parents instead, from the first
   * one again on every page (issue 16: quadratic in the scope), or scan the rest of a large table for a small scope.
   */
  function readPage(entry: EngineTable, c: Cursor): { rows: Record<string, unknown>[]; last: unknown[] | null; more: boolean } {
    const { spec } = entry;
    const keys = c.selection.keys(spec.name);
    if (keys) {
      const sql = `SELECT b.k AS __k, t.* FROM ${keys} b JOIN ${spec.name} t ON t.rowid = b.k WHERE b.k > $after ORDER BY b.k LIMIT $limit`;
      const rows = driver.all<Record<string, unknown>>(sql, { after: (c.after?.[0] as number) ?? -1, limit: PAGE_ROWS });
      const lastRow = rows.at(-1);
      return { rows, last: lastRow ? pageKey(entry, lastRow) : null, more: rows.length === PAGE_ROWS };
    }
    const pk = spec.key.join(', ');
    const marks = spec.key.map((_, i) => `$a${i}`).join(', ');
    const filter = c.selection.filter(spec.name);
    const sql = `SELECT *, (${filter}) AS __in FROM ${spec.name}${c.after ? ` WHERE (${pk}) > (${marks})` : ''} ORDER BY ${pk} LIMIT $limit`;
    const params: Record<string, unknown> = { ...c.selection.params(sql), limit: PAGE_ROWS };
    c.after?.forEach((v, i) => (params[`a${i}`] = v));
    const read = filter === '0' ? [] : driver.all<Record<string, unknown>>(sql, params as never);
    const lastRow = read.at(-1);
    return { rows: read.filter((r) => r.__in), last: lastRow ? pageKey(entry, lastRow) : null, more: read.length === PAGE_ROWS };
  }

  const pageKey = (entry: EngineTable, row: Record<string, unknown>): unknown[] =>
    entry.spec.withoutRowid ? entry.spec.key.map((k) => row[k]) : [row.__k];

  /** A row the importer would refuse is refused here, naming it: a backup that cannot be restored is no backup. */
  function encode(entry: EngineTable, sqlRow: Record<string, unknown>): string {
    const { spec } = entry;
    const row = toFileRow(spec, sqlRow);
    const text = JSON.stringify(row);
    const refuse = (what: string) => {
      const ids = spec.key.every((k) => k.endsWith('id') || k === 'version') ? ` (${spec.key.map((k) => String(row[k])).join(' · ')})` : '';
      return new EngineError(
        'INTERNAL',
        `A row of \`${spec.name}\`${ids} cannot be exported: ${what} is outside the backup format's limits. Edit or delete it, then export again.`,
        { table: spec.name },
      );
    };
    try {
      scanJson(text);
    } catch {
      throw refuse('a JSON value');
    }
    const res = schemas.get(spec.name)?.safeParse(row);
    if (res && !res.success) throw refuse(`\`${res.error.issues[0]?.path.join('.') ?? 'a column'}\``);
    return text;
  }

  /**
   * A piece ends at `maxChars` or after PIECE_MS, whichever comes first (issue 16: an export must not hold the
   * worker long enough to stall a foreground call; the caller just asks for the next piece sooner).
   */
  function tablesPiece(c: Cursor, out: Out, maxChars: number): void {
    const t0 = performance.now();
    const full = () => out.length >= maxChars || performance.now() - t0 >= PIECE_MS;
    while (c.phase === 'tables' && !full()) {
      const entry = REGISTRY[c.table] as EngineTable;
      if (c.after === null && c.firstRow) out.push(`${c.table > 0 ? ',' : ''}"${entry.spec.name}":[`);
      const { rows, last, more } = readPage(entry, c);
      let emitted = 0;
      // Row by row, so a piece overruns `maxChars` by one row at most; the next piece resumes after it.
      for (const row of rows) {
        if (emitted > 0 && full()) break;
        out.push(`${c.firstRow ? '' : ','}${encode(entry, row)}`);
        c.after = pageKey(entry, row);
        c.firstRow = false;
        c.rowsDone++;
        emitted++;
      }
      if (emitted < rows.length) continue;
      // The page's rows out of scope are behind it too.
      if (last) c.after = last;
      if (!more) {
        out.push(']');
        c.table++;
        c.after = null;
        c.firstRow = true;
        if (c.table >= REGISTRY.length) {
          out.push('},"files":[');
          c.phase = 'files';
        }
      }
    }
  }

  async function filesPiece(c: Cursor, out: Out, maxChars: number): Promise<void> {
    while (c.phase === 'files' && out.length < maxChars) {
      const f = c.files[c.fileIndex];
      if (!f) {
        out.push(']}');
        c.phase = 'done';
        break;
      }
      c.fileIndex++;
      const content = await deps.files?.read(f.projectId, f.path);
      if (content === null || content === undefined) continue; // deleted since the export began
      out.push(`${c.filesWritten > 0 ? ',' : ''}${JSON.stringify({ projectId: f.projectId, path: f.path, content })}`);
      c.filesWritten++;
    }
  }

  return {
    async begin(scope: ExportScope): Promise<ExportStarted> {
      expireIdle();
      // At most a few exports at once: the oldest makes room.
      while (cursors.size >= MAX_CURSORS) close(cursors.keys().next().value as string);
      checkTarget(scope);
      const caps = rowidCaps(driver);
      // 1. Size before selecting: an export that could not be imported back is refused as soon as it is known.
      let rowBytes = 0;
      const sizing = sizeScope(driver, scope, caps, { pageRows: beginPage, onPage: (b) => (rowBytes += b) });
      await runSteps('size', sizing, () => {
        if (rowBytes > maxBytes) throw tooLargeToRestore(rowBytes, maxBytes);
      });
      // 2. Capture the rows (own, closure, counts).
      const capture = selectScopeInSteps(driver, scope, caps, { pageRows: beginPage });
      const { selection } = capture;
      try {
        await runSteps('select', capture, () => {});
        const tables = {} as Record<TableName, number>;
        let totalRows = 0;
        for (const { spec } of REGISTRY) totalRows += tables[spec.name] = selection.count(spec.name);
        const files = await listFiles(selection);
        // About the file's size: the rows' values plus each row's JSON keys and punctuation (escapes aside), and
        // the project files' text. The export itself still stops at the limit whatever the estimate said.
        const estimatedBytes = rowBytes + files.reduce((n, f) => n + f.size + f.path.length + 64, 0);
        if (estimatedBytes > maxBytes) throw tooLargeToRestore(estimatedBytes, maxBytes);
        const at = clock.now();
        const exportId = `export-${ids()}`;
        const header = exportHeader({
          exportedAt: new Date(at).toISOString(),
          app: { name: 'engram', version: APP_VERSION, schemaVersion: currentVersion(driver) },
          scope,
        });
        cursors.set(exportId, {
          selection, header, phase: 'header', table: 0, after: null, firstRow: true, rowsDone: 0, totalRows,
          files, fileIndex: 0, filesWritten: 0, touchedAt: at, bytes: 0,
        });
        log.info('backup.export-begin', { scope: scope.kind, rows: totalRows, files: files.length });
        // An abandoned export (its window closed) frees its captured rows without waiting for the next one.
        (setTimeout(expireIdle, IDLE_MS + 1000) as { unref?: () => void }).unref?.();
        return { exportId, fileName: exportFileName(scope, new Date(at)), totalRows, totalFiles: files.length, tables, estimatedBytes };
      } catch (err) {
        selection.drop();
        throw err;
      }
    },
    async chunk(exportId: string, maxChars: number): Promise<ExportChunk> {
      const c = mustGet(exportId);
      const out = new Out();
      try {
        if (c.phase === 'header') {
          out.push(c.header);
          c.phase = 'tables';
        }
        tablesPiece(c, out, maxChars);
        await filesPiece(c, out, maxChars);
      } catch (err) {
        close(exportId);
        throw err;
      }
      const text = out.text();
      // The estimate cannot be exact (escapes): the limit itself is what the file may never cross.
      c.bytes += utf8Length(text);
      if (c.bytes > maxBytes) {
        close(exportId);
        throw tooLargeToRestore(c.bytes, maxBytes);
      }
      const done = c.phase === 'done';
      const result = { text, done, rowsDone: c.rowsDone, totalRows: c.totalRows, filesDone: c.fileIndex, totalFiles: c.files.length };
      if (done) {
        close(exportId);
        log.info('backup.export-done', { rows: c.rowsDone, files: c.filesWritten });
      }
      return result;
    },
    cancel: (exportId: string): boolean => close(exportId),
    /** Cursors read the live database; after the whole database is replaced they must not continue. */
    cancelAll(): void {
      generation++;
      for (const id of [...cursors.keys()]) close(id);
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
