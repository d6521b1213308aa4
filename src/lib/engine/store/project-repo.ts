import { EngineError } from '../../domain/errors';
import type { Project } from '../context/types';
import type { EngineEnv } from '../env';

interface ProjectRow {
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
}

const toProject = (r: ProjectRow): Project => ({ id: r.id, name: r.name, createdAt: r.created_at, updatedAt: r.updated_at });

/** No project has the id given in `field` (also episode recall's check, episodes/recall.ts). */
export const projectNotFound = (field: string): EngineError => new EngineError('NOT_FOUND', `No project with that \`${field}\`.`, { field });

/**
 * Writing projects (004). Deleting one deletes its documents, project rules, runs and project-scoped
 * memories (foreign keys cascade); its conversations stay, detached (sessions.project_id SET NULL).
 */
export function createProjectRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const find = (id: string): Project | undefined => {
    const row = driver.get<ProjectRow>('SELECT * FROM projects WHERE id = ?', [id]);
    return row ? toProject(row) : undefined;
  };
  const mustFind = (id: string, field = 'id'): Project => {
    const p = find(id);
    if (!p) throw projectNotFound(field);
    return p;
  };
  return {
    find,
    mustFind,
    create(input: { name: string }): Project {
      const now = clock.now();
      const id = ids();
      driver.run('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)', [id, input.name, now, now]);
      return mustFind(id);
    },
    list(): Project[] {
      return driver.all<ProjectRow>('SELECT * FROM projects ORDER BY updated_at DESC, id').map(toProject);
    },
    rename(id: string, name: string): Project {
      mustFind(id);
      driver.run('UPDATE projects SET name = ?, updated_at = ? WHERE id = ?', [name, clock.now(), id]);
      return mustFind(id);
    },
    delete(id: string): void {
      mustFind(id);
      driver.run('DELETE FROM projects WHERE id = ?', [id]);
    },
  };
}

export type ProjectRepo = ReturnType<typeof createProjectRepo>;
