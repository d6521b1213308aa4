import { EditorState } from './editor-state.svelte';
import { ProjectsState } from './projects-state.svelte';
import { SettingsFilesState } from './settings-files-state.svelte';
import { SkillRunner } from './skill-run.svelte';
import type { WriteDeps } from './write-deps';

/**
 * The Write page: a project, its chapters, the open chapter, the skills on a selection and the project's
 * setting files — each its own piece of state, joined here so switching a project or a chapter always
 * saves the open text first — and ends the chapter's writing session (003 working memory archived).
 */
export class WriteState {
  readonly projects: ProjectsState;
  readonly editor: EditorState;
  readonly runner: SkillRunner;
  readonly files: SettingsFilesState;

  constructor(deps: WriteDeps) {
    this.projects = new ProjectsState(deps);
    this.editor = new EditorState(deps);
    this.files = new SettingsFilesState(deps);
    this.runner = new SkillRunner(deps, { editor: this.editor, projectId: () => this.projects.projectId });
  }

  /** First load: the skills, the projects, and the first project's first chapter. */
  async start(opts: { projectId?: string | null; documentId?: string | null } = {}): Promise<void> {
    await Promise.all([this.runner.loadSkills(), this.projects.loadProjects(opts.projectId)]);
    await this.#afterProjectChange(opts.documentId ?? null);
  }

  async selectProject(id: string | null): Promise<void> {
    if (this.runner.busy) return;
    this.runner.endSession();
    await this.editor.flush();
    this.projects.projectId = id;
    await this.#afterProjectChange(null);
  }

  async createProject(name: string): Promise<boolean> {
    this.runner.endSession();
    await this.editor.flush();
    const created = await this.projects.createProject(name);
    if (!created) return false;
    await this.#afterProjectChange(null);
    return true;
  }

  async deleteProject(): Promise<boolean> {
    this.runner.endSession();
    await this.editor.flush();
    const deleted = await this.projects.deleteProject();
    if (deleted) await this.#afterProjectChange(null);
    return deleted;
  }

  async openDocument(id: string | null): Promise<void> {
    if (this.runner.busy) return;
    if (id !== this.editor.documentId) this.runner.endSession();
    this.runner.undoable = null;
    await this.editor.open(id);
  }

  async createDocument(title: string): Promise<boolean> {
    const doc = await this.projects.createDocument(title);
    if (!doc) return false;
    await this.openDocument(doc.id);
    return true;
  }

  async renameDocument(id: string, title: string): Promise<boolean> {
    const ok = await this.projects.renameDocument(id, title);
    if (ok && this.editor.documentId === id) this.editor.setTitle(title);
    return ok;
  }

  async deleteDocument(id: string): Promise<boolean> {
    this.runner.endSession(id);
    if (this.editor.documentId === id) await this.editor.open(null);
    const ok = await this.projects.deleteDocument(id);
    if (ok && !this.editor.documentId) await this.editor.open(this.projects.documents[0]?.id ?? null);
    return ok;
  }

  /** The page is left or the tab closes: the open chapter's writing session ends. */
  leave(): void {
    this.runner.endSession();
  }

  /** Another tab wrote something: the lists follow (the open text stays as typed here). */
  async refreshLists(): Promise<void> {
    await this.projects.loadProjects();
    await this.projects.loadDocuments();
    await this.files.load(this.projects.projectId);
  }

  async #afterProjectChange(preferDocument: string | null): Promise<void> {
    await this.projects.loadDocuments();
    const docs = this.projects.documents;
    const target = docs.find((d) => d.id === preferDocument)?.id ?? docs[0]?.id ?? null;
    this.runner.undoable = null;
    await Promise.all([this.editor.open(target), this.files.load(this.projects.projectId)]);
  }
}
