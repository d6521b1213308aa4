/**
 * Node-only. 002 export/import (`memory_export --format json > backup.json`, `memory_import < backup.json`)
 * through the app's own backup calls, so a file written here opens in the app and the other way round:
 *
 *   export: backup.exportBegin ─▶ exportChunk … done ─▶ --out file (written beside, then renamed) or stdout
 *   import: file | stdin ─▶ backup.importPreview (validate, no dry run) ─▶ importStep … (bounded
 *           transactions; a process waiting for the lock gets its turn between them) ─▶ importFiles
 */
import { closeSync, mkdirSync, openAsBlob, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { checkFileSize, MAX_BACKUP_BYTES, type ExportScope } from '../domain/backup';
import { EngineError } from '../domain/errors';
import type { CommandArgs } from './args';
import { callerFor } from './engine-call';
import type { FileEngine } from './open-file-db';
import { importShape } from './shapes';

const CHUNK_CHARS = 1024 * 1024;
const SCOPE_NAMES = { scope: '--scope', 'scope.id': '--scope', id: '--scope' };

export function parseScope(text: string): ExportScope {
  if (text === 'all') return { kind: 'all' };
  const at = text.indexOf(':');
  const kind = text.slice(0, at);
  const id = text.slice(at + 1);
  return kind === 'project' ? { kind: 'project', id } : { kind: 'session', id };
}

/** Writes the export to `--out` (then prints what it wrote) or, without it, to stdout as the export itself. */
export async function exportCommand(ctx: { db: FileEngine; args: CommandArgs<'export'>; write(text: string): void }) {
  const { db, args } = ctx;
  const scope = parseScope(args.scope);
  const call = callerFor(db.engine, SCOPE_NAMES);
  const started = await call('backup.exportBegin', { scope });
  const target = args.out ? resolve(args.out) : null;
  // A half-written file never carries the final name: the export is renamed into place when complete.
  const partial = target && `${target}.partial`;
  if (target) mkdirSync(dirname(target), { recursive: true });
  const fd = partial ? openSync(partial, 'w') : null;
  let chars = 0;
  try {
    for (;;) {
      const chunk = await call('backup.exportChunk', { exportId: started.exportId, maxChars: CHUNK_CHARS });
      chars += chunk.text.length;
      if (fd === null) ctx.write(chunk.text);
      else writeSync(fd, chunk.text);
      if (chunk.done) break;
    }
  } catch (err) {
    await db.engine.call('backup.exportCancel', { exportId: started.exportId });
    if (fd !== null) closeSync(fd);
    if (partial) rmSync(partial, { force: true });
    throw err;
  }
  if (fd === null || !target || !partial) return null;
  closeSync(fd);
  renameSync(partial, target);
  return {
    file: target,
    scope: args.scope,
    total_rows: started.totalRows,
    total_files: started.totalFiles,
    tables: started.tables,
    chars,
  };
}

/** stdin as a Blob — refused as soon as it grows past the largest importable file, not after buffering it all. */
export async function readAll(stream: Readable, maxBytes = MAX_BACKUP_BYTES): Promise<Blob> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  for await (const part of stream) {
    const chunk = new Uint8Array(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
    bytes += chunk.byteLength;
    if (bytes > maxBytes) {
      stream.destroy();
      checkFileSize(Number.MAX_SAFE_INTEGER, '<file>');
    }
    parts.push(chunk);
  }
  return new Blob(parts);
}

/** Rows per import step: a fraction of a second of writing, so a waiting writer is never kept long. */
export const IMPORT_STEP_ROWS = 1000;
/** Between steps, how long the import steps aside at most while another process waits for the lock. */
const STEP_ASIDE_MS = 2000;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** SQLite hands the lock to whoever asks first: an import that asks right after each commit would keep it. */
async function letWaitersIn(db: FileEngine): Promise<void> {
  const until = Date.now() + STEP_ASIDE_MS;
  while (Date.now() < until && db.presence.others().some((n) => n.waiting)) await sleep(20);
}

async function openFile(path: string): Promise<Blob> {
  const full = resolve(path);
  if (!statSync(full, { throwIfNoEntry: false })?.isFile())
    throw new EngineError('NOT_FOUND', 'No file at the path given as `<file>`.', { fields: ['<file>'] });
  return openAsBlob(full);
}

/** 002 memory_import. `--mode replace` first deletes what the file's scope covers, so it needs `--yes`. */
export async function importCommand(ctx: { db: FileEngine; args: CommandArgs<'import'>; stdin(): Readable }) {
  const { db, args } = ctx;
  const path = args.positionals[0];
  const file = path === undefined || path === '-' ? await readAll(ctx.stdin()) : await openFile(path);
  const call = callerFor(db.engine, { file: '<file>', mode: '--mode' });
  // No dry run: counting what the file would change holds the write lock as long as writing it.
  const preview = await call('backup.importPreview', { file, mode: args.mode, dryRun: false });
  if (args.mode === 'replace' && !args.yes) {
    await db.engine.call('backup.importDiscard', { token: preview.token });
    throw new EngineError(
      'MEMORY_CLEAR_CONFIRM_REQUIRED',
      'Importing with `--mode replace` deletes the data the file covers before writing it; add `--yes` to confirm. Nothing was changed.',
      { fields: ['--yes'] },
    );
  }
  db.presence.writing(true);
  try {
    for (;;) {
      const step = await call('backup.importStep', { token: preview.token, mode: args.mode, maxRows: IMPORT_STEP_ROWS });
      if (step.done) {
        const files = await call('backup.importFiles', { token: preview.token });
        return importShape(step, files);
      }
      await letWaitersIn(db);
    }
  } finally {
    db.presence.writing(false);
  }
}
