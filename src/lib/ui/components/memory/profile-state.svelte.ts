import type { Output } from '../../../engine/protocol/contract';
import type { ProfileVersion } from '../../../engine/memory/types';
import { dataOr, failedOutcome, type SaveOutcome, type StateDeps } from './state-deps';

export type ProfileDoc = Output<'profile.get'>;

const HISTORY_PAGE = 20;

/**
 * The Profile tab (seed 000 "用户画像"): the document, its versions, undo. A save names the version it
 * was edited from; when the extractor or another tab wrote in between, the engine answers CONFLICT and
 * the tab shows the other text next to the person's, who decides which one stays.
 */
export class ProfileState {
  /** The stored profile the draft was started from (null until loaded). */
  base = $state.raw<ProfileDoc | null>(null);
  draft = $state('');
  /** After a CONFLICT: the profile as it is now stored. */
  theirs = $state.raw<ProfileDoc | null>(null);
  history = $state.raw<ProfileVersion[]>([]);
  historyTotal = $state(0);
  saving = $state(false);

  #deps: StateDeps;
  #seq = 0;
  /** How many versions a "more" still reading will show: a load meanwhile (a change event) reads that many. */
  #historyWanted = 0;

  constructor(deps: StateDeps) {
    this.#deps = deps;
  }

  get dirty(): boolean {
    return this.base !== null && this.draft !== this.base.content;
  }

  /** The profile and the first page of its history. A draft being edited is kept. */
  async load(): Promise<void> {
    const seq = ++this.#seq;
    const [doc, history] = await Promise.all([
      this.#deps.engine().call('profile.get', {}),
      this.#deps.engine().call('profile.history', { limit: Math.max(HISTORY_PAGE, this.history.length, this.#historyWanted), offset: 0 }),
    ]);
    if (seq !== this.#seq) return;
    const data = dataOr(this.#deps, doc, 'profile.get');
    // While the person edits, the draft keeps the version it started from, so saving a draft made on an
    // older text is a CONFLICT (shown with the other text), never a silent overwrite.
    if (data && !this.dirty) {
      this.base = data;
      this.draft = data.content;
    } else if (data && this.base) {
      this.base = { ...this.base, enabled: data.enabled };
    }
    const versions = dataOr(this.#deps, history, 'profile.history');
    if (versions) {
      this.history = versions.items;
      this.historyTotal = versions.total;
    }
  }

  async loadMoreHistory(): Promise<void> {
    this.#historyWanted = this.history.length + HISTORY_PAGE;
    const res = await this.#deps.engine().call('profile.history', { limit: HISTORY_PAGE, offset: this.history.length });
    this.#historyWanted = 0;
    const data = dataOr(this.#deps, res, 'profile.history');
    if (!data) return;
    const seen = new Set(this.history.map((v) => v.version));
    this.history = [...this.history, ...data.items.filter((v) => !seen.has(v.version))];
    this.historyTotal = data.total;
  }

  async save(): Promise<SaveOutcome> {
    const base = this.base;
    if (!base) return { kind: 'failed' };
    if (!this.dirty) return { kind: 'unchanged' };
    this.saving = true;
    const res = await this.#deps.engine().call('profile.update', { content: this.draft, expectedVersion: base.version });
    this.saving = false;
    if (!res.ok) {
      const outcome = failedOutcome(this.#deps, res.error, 'profile.update');
      if (outcome.kind === 'conflict') await this.#loadTheirs();
      return outcome;
    }
    this.base = { ...res.data, enabled: base.enabled };
    this.draft = res.data.content;
    this.theirs = null;
    await this.load();
    return { kind: 'saved' };
  }

  async #loadTheirs(): Promise<void> {
    const data = dataOr(this.#deps, await this.#deps.engine().call('profile.get', {}), 'profile.get');
    if (data) this.theirs = data;
  }

  /** After a conflict: drop the edit and take the stored text. */
  takeTheirs(): void {
    if (!this.theirs) return;
    this.base = this.theirs;
    this.draft = this.theirs.content;
    this.theirs = null;
  }

  /** After a conflict: save the edit over the stored text (a new version; the other stays in the history). */
  async keepMine(): Promise<SaveOutcome> {
    if (!this.theirs) return { kind: 'failed' };
    this.base = this.theirs;
    this.theirs = null;
    return this.save();
  }

  discard(): void {
    if (this.base) this.draft = this.base.content;
    this.theirs = null;
  }

  /** Takes back the last saved change (an unsaved edit must be saved or discarded first). */
  async undo(): Promise<number | null> {
    const data = dataOr(this.#deps, await this.#deps.engine().call('profile.undo', {}), 'profile.undo');
    if (!data) return null;
    if (this.base) this.base = { ...data.profile, enabled: this.base.enabled };
    this.draft = data.profile.content;
    await this.load();
    return data.undone;
  }
}
