import { normaliseProjectPath } from '../../domain/context';
import { EngineError } from '../../domain/errors';
import { projectFilePath } from '../files/project-file-store';
import type { Services } from '../services';
import type { Handlers } from './index';

type ProjectMethods =
  | 'project.create'
  | 'project.list'
  | 'project.get'
  | 'project.rename'
  | 'project.delete'
  | 'projectFile.list'
  | 'projectFile.read'
  | 'projectFile.write'
  | 'projectFile.delete'
  | 'document.create'
  | 'document.list'
  | 'document.get'
  | 'document.update'
  | 'document.delete'
  | 'graph.addEntity'
  | 'graph.addFact'
  | 'graph.check';

/** Quota errors from OPFS carry no user data; everything else is unexpected and becomes INTERNAL. */
function storageError(err: unknown): never {
  if (err instanceof DOMException && err.name === 'QuotaExceededError') {
    throw new EngineError('QUOTA_EXCEEDED', 'Browser storage is full: the file was not saved. Free some space and try again.');
  }
  throw err;
}

/** Projects, their setting files (OPFS, async), documents and the knowledge graph (issue 5). */
export function contextFileHandlers(s: Services): Handlers<ProjectMethods> {
  const { projects, documents, files } = s.context.deps;
  const { env } = s;
  return {
    'project.create': (input) => projects.create(input),
    'project.list': () => projects.list(),
    'project.get': ({ id }) => projects.mustFind(id),
    'project.rename': ({ id, name }) => projects.rename(id, name),
    'project.delete': ({ id }) => {
      projects.delete(id);
      // Files are not in the transaction (OPFS is async); a failure leaves an orphan folder, logged.
      void files.deleteProject(id).catch((err: unknown) => env.log.warn('project.files-delete-failed', { cause: err instanceof Error ? err.name : 'unknown' }));
      return { deleted: true, id };
    },
    'projectFile.list': async ({ projectId, folder }) => {
      projects.mustFind(projectId, 'projectId');
      return files.list(projectId, folder);
    },
    'projectFile.read': async ({ projectId, path }) => {
      projects.mustFind(projectId, 'projectId');
      const p = projectFilePath(path);
      const content = await files.read(projectId, p);
      if (content === null) throw new EngineError('NOT_FOUND', 'No project file at that `path`.', { field: 'path' });
      const entry = (await files.list(projectId, p.split('/').slice(0, -1).join('/'))).find((e) => e.path === p);
      return { path: p, content, size: entry?.size ?? new TextEncoder().encode(content).length, updatedAt: entry?.updatedAt ?? env.clock.now() };
    },
    'projectFile.write': async ({ projectId, path, content }) => {
      projects.mustFind(projectId, 'projectId');
      const p = projectFilePath(path);
      return files.write(projectId, p, content).catch(storageError);
    },
    'projectFile.delete': async ({ projectId, path }) => {
      projects.mustFind(projectId, 'projectId');
      return { deleted: await files.delete(projectId, projectFilePath(path)) };
    },
    'document.create': (input) => documents.create(input),
    'document.list': ({ projectId }) => {
      projects.mustFind(projectId, 'projectId');
      return documents.list(projectId);
    },
    'document.get': ({ id }) => documents.mustFind(id),
    'document.update': ({ id, ...patch }) => documents.update(id, patch),
    'document.delete': ({ id }) => {
      documents.delete(id);
      return { deleted: true, id };
    },
    'graph.addEntity': (input) => {
      projects.mustFind(input.projectId, 'projectId');
      // Citations stay project-relative (004 "来源引用必须去敏并且可移植").
      const sourceRef = input.sourceRef === undefined ? undefined : normaliseProjectPath(input.sourceRef, 'sourceRef');
      return s.context.graph.addEntity({ ...input, ...(sourceRef ? { sourceRef } : {}) });
    },
    'graph.addFact': (input) => {
      projects.mustFind(input.projectId, 'projectId');
      const evidence = input.evidence.map((e, i) =>
        e.ref.startsWith('file:') ? { ...e, ref: `file:${normaliseProjectPath(e.ref.slice(5), `evidence[${i}].ref`)}` } : e,
      );
      return s.context.graph.addFact({ ...input, evidence });
    },
    'graph.check': (input) => s.context.graphCheck.check(input),
  };
}
