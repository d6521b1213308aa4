/**
 * ProjectFileStore on the Origin Private File System (works in the DB worker: `navigator.storage` and
 * directory handles are available in dedicated workers). Layout: `projects/<projectId>/.engram/…`.
 * Only what the port needs of the File System API is typed here, so the file does not depend on which
 * DOM lib variant (async-iterable handles) the compiler has.
 */
import { EngineError } from '../../domain/errors';
import type { ProjectFileEntry } from '../context/types';
import { projectFilePath, projectFolder, SETTINGS_ROOT, type ProjectFileStore } from './project-file-store';

interface FileHandle {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
  createWritable?: () => Promise<{ write(data: string): Promise<void>; close(): Promise<void> }>;
  createSyncAccessHandle?: () => Promise<{
    truncate(size: number): void;
    write(data: Uint8Array, opts: { at: number }): number;
    flush(): void;
    close(): void;
  }>;
}

interface DirHandle {
  kind: 'directory';
  name: string;
  getDirectoryHandle(name: string, opts?: { create?: boolean }): Promise<DirHandle>;
  getFileHandle(name: string, opts?: { create?: boolean }): Promise<FileHandle>;
  removeEntry(name: string, opts?: { recursive?: boolean }): Promise<void>;
  values(): AsyncIterable<FileHandle | DirHandle>;
}

const isNotFound = (err: unknown) => err instanceof DOMException && (err.name === 'NotFoundError' || err.name === 'TypeMismatchError');

export function opfsProjectFileStore(getRoot: () => Promise<unknown> = () => navigator.storage.getDirectory()): ProjectFileStore {
  async function projectDir(projectId: string, create: boolean): Promise<DirHandle | null> {
    try {
      const root = (await getRoot()) as DirHandle;
      const projects = await root.getDirectoryHandle('projects', { create });
      return await projects.getDirectoryHandle(projectFolder(projectId), { create });
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Walks the folders of `path` (all segments but the last); null when one is missing and !create. */
  async function parentOf(projectId: string, path: string, create: boolean): Promise<{ dir: DirHandle; name: string } | null> {
    const segments = path.split('/');
    const name = segments.pop() as string;
    let dir = await projectDir(projectId, create);
    try {
      for (const s of segments) {
        if (!dir) return null;
        dir = await dir.getDirectoryHandle(s, { create });
      }
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    return dir ? { dir, name } : null;
  }

  async function walk(dir: DirHandle, prefix: string, out: ProjectFileEntry[]): Promise<void> {
    for await (const entry of dir.values()) {
      const path = `${prefix}/${entry.name}`;
      if (entry.kind === 'directory') await walk(entry, path, out);
      else {
        const file = await entry.getFile();
        out.push({ path, size: file.size, updatedAt: file.lastModified });
      }
    }
  }

  return {
    async list(projectId, folder = SETTINGS_ROOT) {
      const base = projectFilePath(folder, 'folder', true);
      const found = await parentOf(projectId, `${base}/_`, false);
      if (!found) return [];
      const out: ProjectFileEntry[] = [];
      await walk(found.dir, base, out);
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    async read(projectId, path) {
      const found = await parentOf(projectId, projectFilePath(path), false);
      if (!found) return null;
      try {
        return await (await (await found.dir.getFileHandle(found.name)).getFile()).text();
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async write(projectId, path, content) {
      const p = projectFilePath(path);
      const found = await parentOf(projectId, p, true);
      if (!found) throw new EngineError('DB_UNAVAILABLE', 'The project folder could not be created in browser storage.');
      const handle = await found.dir.getFileHandle(found.name, { create: true });
      if (handle.createWritable) {
        const w = await handle.createWritable();
        await w.write(content);
        await w.close();
      } else if (handle.createSyncAccessHandle) {
        // Safari's workers have no createWritable; a sync access handle does the same job there.
        const bytes = new TextEncoder().encode(content);
        const sync = await handle.createSyncAccessHandle();
        try {
          sync.truncate(0);
          sync.write(bytes, { at: 0 });
          sync.flush();
        } finally {
          sync.close();
        }
      }
      const file = await handle.getFile();
      return { path: p, size: file.size, updatedAt: file.lastModified };
    },
    async delete(projectId, path) {
      const found = await parentOf(projectId, projectFilePath(path), false);
      if (!found) return false;
      try {
        await found.dir.removeEntry(found.name);
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async deleteProject(projectId) {
      try {
        const root = (await getRoot()) as DirHandle;
        const projects = await root.getDirectoryHandle('projects');
        await projects.removeEntry(projectFolder(projectId), { recursive: true });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
