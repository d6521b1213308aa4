/**
 * Node-only. ProjectFileStore on the file system, for the Node host: the browser's OPFS layout
 * (`projects/<projectId>/.engram/…`) under a root folder beside the database file, so an export made
 * by the CLI carries the same project setting files the app's export does, and an import writes them.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { projectFilePath, projectFolder, SETTINGS_ROOT, type ProjectFileStore } from '../engine/files/project-file-store';
import type { ProjectFileEntry } from '../engine/context/types';

const isMissing = (err: unknown) => (err as { code?: string }).code === 'ENOENT' || (err as { code?: string }).code === 'ENOTDIR';

export function fsProjectFileStore(root: string): ProjectFileStore {
  // projectFolder and projectFilePath reject ids and paths that could leave the root (`..`, absolute).
  const fullPath = (projectId: string, path: string) => join(root, 'projects', projectFolder(projectId), ...path.split('/'));

  async function walk(dir: string, prefix: string, out: ProjectFileEntry[]): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), path, out);
      else if (entry.isFile()) {
        const info = await stat(join(dir, entry.name));
        out.push({ path, size: info.size, updatedAt: Math.round(info.mtimeMs) });
      }
    }
  }

  return {
    async list(projectId, folder = SETTINGS_ROOT) {
      const base = projectFilePath(folder, 'folder', true);
      const out: ProjectFileEntry[] = [];
      try {
        await walk(fullPath(projectId, base), base, out);
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    async read(projectId, path) {
      try {
        return await readFile(fullPath(projectId, projectFilePath(path)), 'utf8');
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async write(projectId, path, content) {
      const p = projectFilePath(path);
      const file = fullPath(projectId, p);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content, 'utf8');
      const info = await stat(file);
      return { path: p, size: info.size, updatedAt: Math.round(info.mtimeMs) };
    },
    async delete(projectId, path) {
      try {
        await rm(fullPath(projectId, projectFilePath(path)));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    async deleteProject(projectId) {
      await rm(join(root, 'projects', projectFolder(projectId)), { recursive: true, force: true });
    },
  };
}
