import type { IpcError } from '../../../domain/errors';
import type { Document, DocumentSummary, Project } from '../../../engine/context/types';
import type { WriteDeps } from './write-deps';

/**
 * The projects and the chapters (documents) of the selected one. Every change goes to the engine first;
 * the lists show what the engine answered, never an optimistic guess.
 */
export class ProjectsState {
  projects = $state.raw<Project[]>([]);
  projectId = $state<string | null>(null);
  documents = $state.raw<DocumentSummary[]>([]);
  error = $state<IpcError | null>(null);
  #engine: WriteDeps['engine'];

  constructor(deps: Pick<WriteDeps, 'engine'>) {
    this.#engine = deps.engine;
  }

  get project(): Project | null {
    return this.projects.find((p) => p.id === this.projectId) ?? null;
  }

  /** Reloads the projects; keeps the selection when it still exists, else picks `prefer` or the first. */
  async loadProjects(prefer?: string | null): Promise<void> {
    const res = await this.#engine.call('project.list', {});
    if (!res.ok) return void (this.error = res.error);
    this.projects = res.data;
    const keep = [prefer, this.projectId].find((id) => id && res.data.some((p) => p.id === id));
    this.projectId = keep ?? res.data[0]?.id ?? null;
  }

  async loadDocuments(): Promise<void> {
    if (!this.projectId) return void (this.documents = []);
    const res = await this.#engine.call('document.list', { projectId: this.projectId });
    if (!res.ok) return void (this.error = res.error);
    this.documents = res.data;
  }

  async createProject(name: string): Promise<Project | null> {
    const res = await this.#engine.call('project.create', { name });
    if (!res.ok) return (this.error = res.error), null;
    await this.loadProjects(res.data.id);
    this.documents = [];
    return res.data;
  }

  async renameProject(name: string): Promise<boolean> {
    if (!this.projectId) return false;
    const res = await this.#engine.call('project.rename', { id: this.projectId, name });
    if (!res.ok) return (this.error = res.error), false;
    this.projects = this.projects.map((p) => (p.id === res.data.id ? res.data : p));
    return true;
  }

  /** Deletes the selected project with its documents, rules, runs and setting files (after the UI confirmed). */
  async deleteProject(): Promise<boolean> {
    if (!this.projectId) return false;
    const res = await this.#engine.call('project.delete', { id: this.projectId });
    if (!res.ok) return (this.error = res.error), false;
    this.projectId = null;
    await this.loadProjects();
    await this.loadDocuments();
    return true;
  }

  async createDocument(title: string): Promise<Document | null> {
    if (!this.projectId) return null;
    const res = await this.#engine.call('document.create', { projectId: this.projectId, title });
    if (!res.ok) return (this.error = res.error), null;
    await this.loadDocuments();
    return res.data;
  }

  async renameDocument(id: string, title: string): Promise<boolean> {
    const res = await this.#engine.call('document.update', { id, title });
    if (!res.ok) return (this.error = res.error), false;
    await this.loadDocuments();
    return true;
  }

  async deleteDocument(id: string): Promise<boolean> {
    const res = await this.#engine.call('document.delete', { id });
    if (!res.ok) return (this.error = res.error), false;
    await this.loadDocuments();
    return true;
  }
}
