/**
 * Project setting files (seed 004 "设定按需加载", ARCHITECTURE §4): characters, world, style guide live as
 * files under the project's `.engram/` folder, never in the prompt by default. The port is async (OPFS
 * is); paths are project-relative and always pass through `projectFilePath` first, so no call can
 * reach outside `projects/<projectId>/.engram/`.
 *
 *   OPFS root/ projects/<projectId>/ .engram/ characters/alice.md
 *                                             world/setting.md
 *                                             style/guide.md
 */
import { normaliseProjectPath } from '../../domain/context';
import { EngineError } from '../../domain/errors';
import type { ProjectFileEntry } from '../context/types';

export const SETTINGS_ROOT = '.engram';
/** A setting file is text meant to be trimmed into a prompt: 1 MB of it is already far too much. */
export const MAX_FILE_CHARS = 1_000_000;

export interface ProjectFileStore {
  /** Files under `folder` (default `.engram`), recursively, sorted by path. A missing folder lists nothing. */
  list(projectId: string, folder?: string): Promise<ProjectFileEntry[]>;
  /** The file's text, or null when it does not exist. */
  read(projectId: string, path: string): Promise<string | null>;
  write(projectId: string, path: string, content: string): Promise<ProjectFileEntry>;
  /** True when a file was removed. */
  delete(projectId: string, path: string): Promise<boolean>;
  /** Removes every file of a project (project.delete). */
  deleteProject(projectId: string): Promise<void>;
}

/**
 * Normalises a path (INVALID_ARGUMENT for absolute paths, `..` escapes, URLs — never echoing the path)
 * and keeps it inside `.engram/`. `allowRoot` accepts `.engram` itself (for listing).
 */
export function projectFilePath(path: string, field = 'path', allowRoot = false): string {
  const p = normaliseProjectPath(path, field);
  if (p === SETTINGS_ROOT && allowRoot) return p;
  if (!p.startsWith(`${SETTINGS_ROOT}/`)) {
    throw new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: project files live under \`${SETTINGS_ROOT}/\``, { fields: [field] });
  }
  return p;
}

/** Project ids become folder names: only the characters our ids use. */
export function projectFolder(projectId: string): string {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(projectId)) {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `projectId`: expected letters, digits, `-` or `_`', { fields: ['projectId'] });
  }
  return projectId;
}

/** For Node tests and the Node host's in-memory mode. */
export function memoryProjectFileStore(clock: { now(): number } = { now: () => Date.now() }): ProjectFileStore {
  const files = new Map<string, { content: string; updatedAt: number }>();
  const key = (projectId: string, path: string) => `${projectFolder(projectId)}/${path}`;
  const size = (s: string) => new TextEncoder().encode(s).length;
  return {
    async list(projectId, folder = SETTINGS_ROOT) {
      const base = `${key(projectId, projectFilePath(folder, 'folder', true))}/`;
      const prefix = `${projectFolder(projectId)}/`;
      return [...files.entries()]
        .filter(([k]) => k.startsWith(base))
        .map(([k, f]) => ({ path: k.slice(prefix.length), size: size(f.content), updatedAt: f.updatedAt }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    async read(projectId, path) {
      return files.get(key(projectId, projectFilePath(path)))?.content ?? null;
    },
    async write(projectId, path, content) {
      const p = projectFilePath(path);
      const updatedAt = clock.now();
      files.set(key(projectId, p), { content, updatedAt });
      return { path: p, size: size(content), updatedAt };
    },
    async delete(projectId, path) {
      return files.delete(key(projectId, projectFilePath(path)));
    },
    async deleteProject(projectId) {
      const prefix = `${projectFolder(projectId)}/`;
      for (const k of [...files.keys()]) if (k.startsWith(prefix)) files.delete(k);
    },
  };
}
