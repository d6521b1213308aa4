import type { MemoryRecord } from '../../../domain/memory';
import type { ClearReport, DeleteResult, MemoryDetail, RetrievalResult, UndoResult } from '../../../engine/memory/types';
import { buildCreateInput, buildUpdateInput, changesSomething, type AddDraft, type EditDraft } from './drafts';
import { buildListInput, clampPage, EMPTY_FILTERS, hasFilters, pageCount, pageRange, type MemoryFilters } from './list-input';
import { dataOr, failedOutcome, type SaveOutcome, type StateDeps } from './state-deps';

/** memory.retrieve accepts a query of at most this many characters (contract). */
const MAX_RETRIEVE_QUERY = 20_000;

/**
 * The Memories tab: the paginated list (filters, search), the open memory's detail, and every change the
 * manager makes (seed 000 CRUD, seed 001 list/get/delete/clear). Each write re-reads what it touched, so
 * the view is right even before the cross-tab change event arrives. Only the newest request's answer is
 * shown: a slow answer to an older list or detail request is dropped.
 */
export class MemoriesState {
  filters = $state<MemoryFilters>({ ...EMPTY_FILTERS });
  query = $state('');
  /** 0-based. */
  page = $state(0);
  items = $state.raw<MemoryRecord[]>([]);
  total = $state(0);
  loading = $state(false);
  /** True once the first list answer arrived (before that the page shows "loading", not "empty"). */
  loaded = $state(false);

  selectedId = $state<string | null>(null);
  detail = $state.raw<MemoryDetail | null>(null);
  /** The open memory does not exist (a stale deep link, or deleted in another tab). */
  missing = $state(false);

  retrieval = $state.raw<RetrievalResult | null>(null);
  retrieving = $state(false);

  #deps: StateDeps;
  #listSeq = 0;
  #detailSeq = 0;
  #retrieveSeq = 0;

  constructor(deps: StateDeps) {
    this.#deps = deps;
  }

  /** The engine this page talks to (a profile-change notice's Undo calls it). */
  get engine(): ReturnType<StateDeps['engine']> {
    return this.#deps.engine();
  }

  get range(): { from: number; to: number; total: number } {
    return pageRange({ page: this.page, shown: this.items.length, total: this.total });
  }

  get pages(): number {
    return pageCount(this.total);
  }

  /** Whether an empty list means "nothing matches" rather than "nothing remembered yet". */
  get narrowed(): boolean {
    return hasFilters(this.filters) || this.query.trim() !== '';
  }

  async load(): Promise<void> {
    const seq = ++this.#listSeq;
    this.loading = true;
    const res = await this.#deps.engine().call('memory.list', buildListInput({ filters: this.filters, query: this.query, page: this.page }));
    if (seq !== this.#listSeq) return;
    this.loading = false;
    const data = dataOr(this.#deps, res, 'memory.list');
    if (!data) return;
    // The page emptied under us (a delete, a clear in another tab): show the last page that has rows.
    const last = clampPage(this.page, data.total);
    if (data.items.length === 0 && last !== this.page) {
      this.page = last;
      return this.load();
    }
    this.items = data.items;
    this.total = data.total;
    this.loaded = true;
  }

  /** A new search or filter starts from the first page. */
  async search(): Promise<void> {
    this.page = 0;
    await this.load();
  }

  async goToPage(page: number): Promise<void> {
    this.page = Math.min(Math.max(0, page), this.pages - 1);
    await this.load();
  }

  async clearFilters(): Promise<void> {
    this.filters = { ...EMPTY_FILTERS };
    await this.search();
  }

  /** Opens a memory's detail (null closes it). */
  async select(id: string | null): Promise<void> {
    this.selectedId = id;
    this.missing = false;
    if (id === null) {
      ++this.#detailSeq;
      this.detail = null;
      return;
    }
    if (this.detail?.memory.id !== id) this.detail = null;
    await this.#loadDetail(id);
  }

  async #loadDetail(id: string): Promise<void> {
    const seq = ++this.#detailSeq;
    const res = await this.#deps.engine().call('memory.get', { id });
    if (seq !== this.#detailSeq || this.selectedId !== id) return;
    if (res.ok) {
      this.detail = res.data;
      this.missing = false;
    } else if (res.error.code === 'NOT_FOUND') {
      this.detail = null;
      this.missing = true;
    } else {
      this.#deps.onError(res.error, 'memory.get');
    }
  }

  /** The list and the open memory again (after a write here or anywhere). */
  async refresh(): Promise<void> {
    await Promise.all([this.load(), this.selectedId ? this.#loadDetail(this.selectedId) : Promise.resolve()]);
  }

  /** "Add memory": a manual, user_stated memory; it opens in the detail panel. */
  async create(draft: AddDraft): Promise<SaveOutcome> {
    const built = buildCreateInput(draft);
    if (!built.ok) return { kind: 'invalid', errors: built.errors };
    const res = await this.#deps.engine().call('memory.create', built.input);
    if (!res.ok) return failedOutcome(this.#deps, res.error, 'memory.create');
    this.selectedId = res.data.id;
    await this.refresh();
    return { kind: 'saved' };
  }

  /**
   * An edit of the open memory. `base` is the memory as it was when the edit began (the form keeps it:
   * a refresh after a write elsewhere must not move it forward, or the version check would pass and the
   * edit would undo the other change). A stale base is refused (CONFLICT) and the current state loaded.
   */
  async update(draft: EditDraft, base: MemoryRecord | undefined = this.detail?.memory): Promise<SaveOutcome> {
    const memory = base;
    if (!memory) return { kind: 'failed' };
    const built = buildUpdateInput(memory, draft);
    if (!built.ok) return { kind: 'invalid', errors: built.errors };
    if (!changesSomething(built.input)) return { kind: 'unchanged' };
    const res = await this.#deps.engine().call('memory.update', built.input);
    const outcome: SaveOutcome = res.ok ? { kind: 'saved' } : failedOutcome(this.#deps, res.error, 'memory.update');
    if (outcome.kind === 'saved' || outcome.kind === 'conflict') await this.refresh();
    return outcome;
  }

  /**
   * Seed 001 "User delete specific memory": permanent, with its history and the profile line it wrote
   * (the result says what changed in the profile). Null when it failed or was already gone.
   */
  async remove(id: string): Promise<DeleteResult | null> {
    const res = await this.#deps.engine().call('memory.delete', { id });
    if (!res.ok && res.error.code !== 'NOT_FOUND') {
      this.#deps.onError(res.error, 'memory.delete');
      return null;
    }
    if (this.selectedId === id) await this.select(null);
    await this.load();
    return res.ok ? res.data : null;
  }

  /** Takes back the memory's last change; undoing its creation deletes it (and closes the panel). */
  async undo(id: string): Promise<UndoResult | null> {
    const data = dataOr(this.#deps, await this.#deps.engine().call('memory.undo', { id }), 'memory.undo');
    if (data?.kind === 'deleted' && this.selectedId === id) await this.select(null);
    if (data && data.kind !== 'nothing') await this.refresh();
    return data;
  }

  /** A superseded memory becomes current again, or (with `version`) the memory returns to that version. */
  async restore(id: string, version?: number): Promise<boolean> {
    const res = await this.#deps.engine().call('memory.restore', version === undefined ? { id } : { id, version });
    if (!dataOr(this.#deps, res, 'memory.restore')) return false;
    await this.refresh();
    return true;
  }

  /** How many memories exist in all, whatever the filters (what "Clear all" would delete). */
  async countAll(): Promise<number | null> {
    const res = await this.#deps.engine().call('memory.list', { limit: 1, status: 'all' });
    return dataOr(this.#deps, res, 'memory.list')?.total ?? null;
  }

  /** Seed 001 "User clear all memories", after the person typed the confirmation word. */
  async clear(includeProfile: boolean): Promise<ClearReport | null> {
    const data = dataOr(this.#deps, await this.#deps.engine().call('memory.clear', { confirm: true, includeProfile }), 'memory.clear');
    if (!data) return null;
    await this.select(null);
    this.page = 0;
    this.retrieval = null;
    await this.load();
    return data;
  }

  /** "Test retrieval": 001's ranking for a message, with every term explained (a read: nothing is marked used). */
  async retrieve(query: string): Promise<void> {
    const text = query.trim().slice(0, MAX_RETRIEVE_QUERY);
    const seq = ++this.#retrieveSeq;
    if (!text) {
      this.retrieval = null;
      this.retrieving = false;
      return;
    }
    this.retrieving = true;
    const res = await this.#deps.engine().call('memory.retrieve', { query: text, purpose: 'api' });
    if (seq !== this.#retrieveSeq) return;
    this.retrieving = false;
    this.retrieval = dataOr(this.#deps, res, 'memory.retrieve');
  }
}
