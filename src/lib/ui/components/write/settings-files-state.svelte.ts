import type { IpcError } from '../../../domain/errors';
import type { ProjectFileEntry } from '../../../engine/context/types';
import { settingsFilePath, type FileNameProblem, type SettingsFolder } from './settings-files';
import type { WriteDeps } from './write-deps';

export interface OpenFile {
  path: string;
  content: string;
  /** Not written yet: created in the panel, saved on the first Save. */
  isNew: boolean;
}

/** The side panel of project setting files (`projectFile.*`): list, open, create, save, delete. */
export class SettingsFilesState {
  entries = $state.raw<ProjectFileEntry[]>([]);
  open = $state<OpenFile | null>(null);
  dirty = $state(false);
  busy = $state(false);
  error = $state.raw<IpcError | null>(null);
  #engine: WriteDeps['engine'];
  #projectId: string | null = null;

  constructor(deps: Pick<WriteDeps, 'engine'>) {
    this.#engine = deps.engine;
  }

  async load(projectId: string | null): Promise<void> {
    if (projectId !== this.#projectId) {
      this.open = null;
      this.dirty = false;
    }
    this.#projectId = projectId;
    this.error = null;
    if (!projectId) return void (this.entries = []);
    const res = await this.#engine.call('projectFile.list', { projectId });
    if (projectId !== this.#projectId) return;
    if (res.ok) this.entries = res.data;
    else this.error = res.error;
  }

  async openFile(path: string): Promise<void> {
    if (!this.#projectId) return;
    const res = await this.#engine.call('projectFile.read', { projectId: this.#projectId, path });
    if (!res.ok) return void (this.error = res.error);
    this.open = { path: res.data.path, content: res.data.content, isNew: false };
    this.dirty = false;
    this.error = null;
  }

  /** A new, empty file in the panel; a bad name is reported as data and nothing changes. */
  startNew(folder: SettingsFolder, name: string): FileNameProblem | 'exists' | null {
    const p = settingsFilePath(folder, name);
    if (!p.ok) return p.problem;
    if (this.entries.some((e) => e.path === p.path)) return 'exists';
    this.open = { path: p.path, content: '', isNew: true };
    this.dirty = true;
    this.error = null;
    return null;
  }

  edit(content: string): void {
    if (!this.open) return;
    this.open.content = content;
    this.dirty = true;
  }

  async save(): Promise<boolean> {
    const file = this.open;
    if (!file || !this.#projectId) return false;
    this.busy = true;
    const res = await this.#engine.call('projectFile.write', { projectId: this.#projectId, path: file.path, content: file.content });
    this.busy = false;
    if (!res.ok) return (this.error = res.error), false;
    this.open = { ...file, path: res.data.path, isNew: false };
    this.dirty = false;
    this.error = null;
    await this.load(this.#projectId);
    return true;
  }

  async remove(path: string): Promise<boolean> {
    if (!this.#projectId) return false;
    const res = await this.#engine.call('projectFile.delete', { projectId: this.#projectId, path });
    if (!res.ok) return (this.error = res.error), false;
    if (this.open?.path === path) {
      this.open = null;
      this.dirty = false;
    }
    await this.load(this.#projectId);
    return true;
  }

  close(): void {
    this.open = null;
    this.dirty = false;
  }
}
