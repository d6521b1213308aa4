/**
 * Node-only. `engram import --from chatgpt|claude|sillytavern|lorebook|logs <file|folder>` (issue 14;
 * seed 002 `memory_import --from-logs`): the same calls the app's backup page makes —
 *
 *   files ─▶ import.preview ─▶ (--dry-run: print it) ─▶ import.applyStep … ─▶ import.finish
 *         ─▶ import.followUp until done (memories + rolling summaries; the CLI has no jobs worker)
 *
 * Progress goes to stderr when it is a terminal; the result is one JSON line (or --pretty).
 */
import { openAsBlob, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { EngineError } from '../domain/errors';
import type { ImportSource } from '../domain/imports/types';
import { drainFollowUp, driveImport } from '../engine/imports/drive';
import type { ImportPlanPreview } from '../engine/imports';
import type { ImportFileInput } from '../engine/imports/read-import';
import type { CommandArgs } from './args';
import { callerFor, renameFields } from './engine-call';
import type { FileEngine } from './open-file-db';

const NAMES = { files: '<file>', source: '--from', projectId: '--project', projectName: '--project-name', token: '<file>' };

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

/** The file, or every file of the folder (named by its path inside it: a log's identity). */
async function filesAt(path: string, source: ImportSource): Promise<ImportFileInput[]> {
  const full = resolve(path);
  const info = statSync(full, { throwIfNoEntry: false });
  if (!info) throw new EngineError('NOT_FOUND', 'No file or folder at the path given as `<file>`.', { fields: ['<file>'] });
  if (info.isFile()) return [{ name: full.split(/[\\/]/).pop() as string, file: await openAsBlob(full) }];
  if (source !== 'logs' && source !== 'sillytavern')
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `<file>`: give the export file itself, not a folder.', { fields: ['<file>'] });
  const paths = walk(full).filter((p) => source === 'logs' || p.toLowerCase().endsWith('.jsonl'));
  if (paths.length === 0) throw new EngineError('NOT_FOUND', 'The folder given as `<file>` holds no files to import.', { fields: ['<file>'] });
  return Promise.all(paths.map(async (p) => ({ name: relative(full, p).split(/[\\/]/).join('/'), file: await openAsBlob(p) })));
}

const previewShape = (p: ImportPlanPreview) => ({
  source: p.source,
  bytes: p.bytes,
  conversations: {
    incoming: p.conversations.incoming,
    added: p.conversations.add,
    extended: p.conversations.extend,
    unchanged: p.conversations.same,
    changed_here_kept: p.conversations.changed,
    duplicates: p.conversations.duplicate,
    empty: p.conversations.empty,
  },
  messages: { incoming: p.messages.incoming, added: p.messages.add, skipped: p.messages.skip },
  left_out: p.skipped,
  skipped_files: p.skippedFiles,
  range: p.range && { from: new Date(p.range.from).toISOString(), to: new Date(p.range.to).toISOString() },
  titles: p.titles,
  ...(p.lorebook
    ? {
        lorebook: {
          project_id: p.lorebook.projectId,
          project_name: p.lorebook.projectName,
          project_exists: p.lorebook.projectExists,
          files: { incoming: p.lorebook.files.incoming, added: p.lorebook.files.add, unchanged: p.lorebook.files.skip, kept_local: p.lorebook.files.conflict },
        },
      }
    : {}),
});

export async function foreignImportCommand(ctx: { db: FileEngine; args: CommandArgs<'import'>; progress(text: string | null): void }) {
  const { db, args } = ctx;
  const source = args.from as ImportSource;
  const path = args.positionals[0];
  if (path === undefined || path === '-')
    throw new EngineError('INVALID_ARGUMENT', 'Missing `<file>`: `import --from` reads a file or a folder, not stdin.', { fields: ['<file>'] });
  if (args.mode !== 'merge' || args.yes)
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `--mode`: an import from another app only adds (it never replaces).', { fields: ['--mode'] });
  const files = await filesAt(path, source);
  const call = callerFor(db.engine, NAMES);
  const preview = await call('import.preview', { source, files, projectId: args.project, projectName: args['project-name'] });
  const planned = previewShape(preview);
  if (args['dry-run']) return { dry_run: true, ...planned };

  const outcome = await driveImport({
    engine: db.engine,
    preview,
    onProgress: (p) => ctx.progress(`Importing ${p.messages.done}/${p.messages.total}`),
  });
  ctx.progress(null);
  if (outcome.kind === 'failed') throw renameFields(outcome.error, NAMES);
  if (outcome.kind !== 'done') throw new EngineError('CANCELED', 'The import was stopped; nothing of it was kept.');
  const learned = await drainFollowUp({ engine: db.engine, onProgress: (left) => ctx.progress(`Learning from imported messages: ${left} left`) });
  ctx.progress(null);
  if (!learned.ok) throw renameFields(learned.error, NAMES);
  return {
    dry_run: false,
    ...planned,
    written: { conversations: outcome.result.conversations, messages: outcome.result.messages },
    ...(outcome.result.files ? { files_written: outcome.result.files.add } : {}),
    follow_up: { memories: learned.total.memories, summaries: learned.total.summaries, messages_read: learned.total.messages },
  };
}
