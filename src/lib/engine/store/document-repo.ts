import { EngineError } from '../../domain/errors';
import type { Document, DocumentSummary } from '../context/types';
import type { EngineEnv } from '../env';

interface DocumentRow {
  id: string;
  project_id: string;
  title: string;
  content: string;
  created_at: number;
  updated_at: number;
}

const toDocument = (r: DocumentRow): Document => ({
  id: r.id,
  projectId: r.project_id,
  title: r.title,
  content: r.content,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Chapters of a project for the Write page (004 `documents`). */
export function createDocumentRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const find = (id: string): Document | undefined => {
    const row = driver.get<DocumentRow>('SELECT * FROM documents WHERE id = ?', [id]);
    return row ? toDocument(row) : undefined;
  };
  const mustFind = (id: string, field = 'id'): Document => {
    const d = find(id);
    if (!d) throw new EngineError('NOT_FOUND', `No document with that \`${field}\`.`, { field });
    return d;
  };
  return {
    find,
    mustFind,
    /** The project a chapter belongs to, without reading its text; NOT_FOUND names `field`. */
    mustFindProject(id: string, field = 'id'): string {
      const row = driver.get<{ project_id: string }>('SELECT project_id FROM documents WHERE id = ?', [id]);
      if (!row) throw new EngineError('NOT_FOUND', `No document with that \`${field}\`.`, { field });
      return row.project_id;
    },
    create(input: { projectId: string; title: string; content: string }): Document {
      if (!driver.get('SELECT 1 FROM projects WHERE id = ?', [input.projectId]))
        throw new EngineError('NOT_FOUND', 'No project with that `projectId`.', { field: 'projectId' });
      const now = clock.now();
      const id = ids();
      driver.run('INSERT INTO documents (id, project_id, title, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        id,
        input.projectId,
        input.title,
        input.content,
        now,
        now,
      ]);
      driver.run('UPDATE projects SET updated_at = ? WHERE id = ?', [now, input.projectId]);
      return mustFind(id);
    },
    list(projectId: string): DocumentSummary[] {
      return driver
        .all<Omit<DocumentRow, 'content'> & { chars: number }>(
          'SELECT id, project_id, title, created_at, updated_at, length(content) AS chars FROM documents WHERE project_id = ? ORDER BY created_at, id',
          [projectId],
        )
        .map((r) => ({ id: r.id, projectId: r.project_id, title: r.title, createdAt: r.created_at, updatedAt: r.updated_at, chars: r.chars }));
    },
    update(id: string, patch: { title?: string; content?: string }): Document {
      const before = mustFind(id);
      const now = clock.now();
      driver.run('UPDATE documents SET title = ?, content = ?, updated_at = ? WHERE id = ?', [
        patch.title ?? before.title,
        patch.content ?? before.content,
        now,
        id,
      ]);
      driver.run('UPDATE projects SET updated_at = ? WHERE id = ?', [now, before.projectId]);
      return mustFind(id);
    },
    delete(id: string): void {
      mustFind(id);
      driver.run('DELETE FROM documents WHERE id = ?', [id]);
    },
  };
}

export type DocumentRepo = ReturnType<typeof createDocumentRepo>;
