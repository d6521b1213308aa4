import type { TableCounts } from '../../domain/backup/diff';
import type { ExportFile, ImportMode } from '../../domain/backup';
import type { ProjectFileStore } from '../files/project-file-store';

/**
 * Project setting files of an import (OPFS, behind the ProjectFileStore port). They are not in SQLite,
 * so they are written after the database part commits: a file whose content is already there is left
 * alone, so running this twice changes nothing. Merge keeps a local file that differs (a conflict);
 * replace writes the file's version and removes the other files of the projects the scope owned.
 */
/** Files are counted like table rows. */
export type FilesReport = TableCounts;

type FileAction = 'add' | 'update' | 'skip' | 'conflict';

async function plan(store: ProjectFileStore, f: ExportFile, mode: ImportMode): Promise<FileAction> {
  const local = await store.read(f.projectId, f.path);
  if (local === null) return 'add';
  if (local === f.content) return 'skip';
  return mode === 'replace' ? 'update' : 'conflict';
}

/** Local files a replace removes: those of the cleared projects that the file does not bring. */
async function leftovers(store: ProjectFileStore, files: readonly ExportFile[], clearProjects: readonly string[]) {
  const incoming = new Set(files.map((f) => `${f.projectId}/${f.path}`));
  const out: { projectId: string; path: string }[] = [];
  for (const projectId of clearProjects) {
    for (const e of await store.list(projectId)) if (!incoming.has(`${projectId}/${e.path}`)) out.push({ projectId, path: e.path });
  }
  return out;
}

export async function importFiles(opts: {
  store: ProjectFileStore | undefined;
  files: readonly ExportFile[];
  mode: ImportMode;
  clearProjects: readonly string[];
  /** false: only count (the preview). */
  write: boolean;
}): Promise<FilesReport> {
  const report: FilesReport = { incoming: opts.files.length, add: 0, update: 0, skip: 0, conflict: 0, removed: 0 };
  const { store } = opts;
  if (!store) return { ...report, skip: opts.files.length };
  if (opts.mode === 'replace') {
    for (const f of await leftovers(store, opts.files, opts.clearProjects)) {
      if (opts.write) await store.delete(f.projectId, f.path);
      report.removed++;
    }
  }
  for (const f of opts.files) {
    const action = await plan(store, f, opts.mode);
    if (opts.write && (action === 'add' || action === 'update')) await store.write(f.projectId, f.path, f.content);
    report[action]++;
  }
  return report;
}
