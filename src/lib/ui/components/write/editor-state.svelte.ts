import type { IpcError } from '../../../domain/errors';
import { draftId, type WriteDeps } from './write-deps';

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';

export const SAVE_DELAY_MS = 800;

/**
 * The open chapter. Two copies of the text, on purpose (ARCHITECTURE §3):
 *
 *   keystroke ─▶ content ─▶ Dexie draft `write:<id>` (every keystroke: a crash loses nothing)
 *                   └─ 800 ms pause · blur · Ctrl+S ─▶ document.update ─▶ saved (the draft is cleared
 *                                                                          if nothing was typed since)
 *
 * On open, a draft newer than the saved document and different from it is restored (and said so).
 */
export class EditorState {
  documentId = $state<string | null>(null);
  title = $state('');
  content = $state('');
  saveState = $state<SaveState>('saved');
  /** True when the text shown came from an unsaved draft, not from the database. */
  restoredDraft = $state(false);
  error = $state<IpcError | null>(null);
  #deps: WriteDeps;
  #saved = '';
  #timer: ReturnType<typeof setTimeout> | null = null;
  #inFlight: Promise<void> | null = null;
  #openSeq = 0;

  constructor(deps: WriteDeps) {
    this.#deps = deps;
  }

  get dirty(): boolean {
    return this.content !== this.#saved;
  }

  async open(documentId: string | null): Promise<void> {
    await this.flush();
    const seq = ++this.#openSeq;
    this.#cancelTimer();
    this.error = null;
    this.restoredDraft = false;
    if (!documentId) {
      this.documentId = null;
      this.title = '';
      this.content = this.#saved = '';
      this.saveState = 'saved';
      return;
    }
    const [res, draft] = await Promise.all([
      this.#deps.engine.call('document.get', { id: documentId }),
      this.#deps.drafts.get(draftId(documentId)).catch(() => undefined),
    ]);
    if (seq !== this.#openSeq) return;
    if (!res.ok) {
      this.error = res.error;
      this.documentId = null;
      return;
    }
    this.documentId = documentId;
    this.title = res.data.title;
    this.#saved = res.data.content;
    const newer = draft && draft.text !== res.data.content && draft.updatedAt >= res.data.updatedAt;
    this.content = newer ? draft.text : res.data.content;
    this.restoredDraft = Boolean(newer);
    this.saveState = newer ? 'unsaved' : 'saved';
    if (!newer && draft) void this.#deps.drafts.clear(draftId(documentId)).catch(() => undefined);
    if (newer) this.#schedule();
  }

  /** Every keystroke (and every applied skill result). */
  input(text: string): void {
    if (!this.documentId) return;
    this.content = text;
    this.restoredDraft = false;
    void this.#deps.drafts.put(draftId(this.documentId), text).catch(() => undefined);
    if (this.dirty) {
      this.saveState = 'unsaved';
      this.#schedule();
    } else if (this.saveState !== 'saving') this.saveState = 'saved';
  }

  /** Saves now (blur, Ctrl+S, leaving the document); resolves when the text on screen is stored or failed. */
  async flush(): Promise<void> {
    this.#cancelTimer();
    while (this.#inFlight) await this.#inFlight;
    if (!this.documentId || !this.dirty) return;
    this.#inFlight = this.#save(this.documentId, this.content);
    try {
      await this.#inFlight;
    } finally {
      this.#inFlight = null;
    }
  }

  /** The title changed elsewhere (rename in the list). */
  setTitle(title: string): void {
    this.title = title;
  }

  async #save(id: string, text: string): Promise<void> {
    this.saveState = 'saving';
    const res = await this.#deps.engine.call('document.update', { id, content: text });
    if (this.documentId !== id) return;
    if (!res.ok) {
      // The draft still holds the text; the next keystroke or Ctrl+S tries again.
      this.error = res.error;
      this.saveState = 'error';
      return;
    }
    this.error = null;
    this.#saved = text;
    if (this.content === text) {
      this.saveState = 'saved';
      void this.#deps.drafts.clear(draftId(id)).catch(() => undefined);
    } else {
      this.saveState = 'unsaved';
      this.#schedule();
    }
  }

  #schedule(): void {
    this.#cancelTimer();
    this.#timer = setTimeout(() => void this.flush(), this.#deps.saveDelayMs ?? SAVE_DELAY_MS);
  }

  #cancelTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
