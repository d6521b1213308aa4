import type { TableCounts } from '../../domain/backup/diff';
import type { ExportFile, ImportMode } from '../../domain/backup';
import type { ProjectFileStore } from '../files/project-file-store';

/**
 * Project setting files of an import (OPFS, behind the ProjectFileStore port). They are not in SQLite,
 * so they cannot be in the import's transaction; instead the preview plans them, the apply records the
 * plan in the same transaction as the rows (file-journal.ts), and the plan is then carried out —
 * idempotently, as often as it takes, also after a restart. Merge keeps a local file that differs (a
 * conflict); replace writes the file's version and removes the other files of the projects the scope
 * owned.
 */
/** Files are counted like table rows. */
export type FilesReport = TableCounts;

export interface FilePlan {
  report: FilesReport;
  writes: ExportFile[];
  deletes: { projectId: string; path: string }[];
}

type FileAction = 'add' | 'update' | 'skip' | 'conflict';

async function decide(store: ProjectFileStore, f: ExportFile, mode: ImportMode): Promise<FileAction> {
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

/** What an import would do to the files (nothing is written). */
export async function planFiles(opts: {
  store: ProjectFileStore | undefined;
  files: readonly ExportFile[];
  mode: ImportMode;
  clearProjects: readonly string[];
}): Promise<FilePlan> {
  const report: FilesReport = { incoming: opts.files.length, add: 0, update: 0, skip: 0, conflict: 0, removed: 0 };
  const { store } = opts;
  if (!store) return { report: { ...report, skip: opts.files.length }, writes: [], deletes: [] };
  const deletes = opts.mode === 'replace' ? await leftovers(store, opts.files, opts.clearProjects) : [];
  report.removed = deletes.length;
  const writes: ExportFile[] = [];
  for (const f of opts.files) {
    const action = await decide(store, f, opts.mode);
    if (action === 'add' || action === 'update') writes.push(f);
    report[action]++;
  }
  return { report, writes, deletes };
}

/** Carries out a plan. Safe to run again: a write puts the same content, a delete of a gone file is a no-op. */
export async function carryOut(store: ProjectFileStore | undefined, plan: Pick<FilePlan, 'writes' | 'deletes'>): Promise<void> {
  if (!store) return;
  for (const d of plan.deletes) await store.delete(d.projectId, d.path);
  for (const f of plan.writes) await store.write(f.projectId, f.path, f.content);
}
