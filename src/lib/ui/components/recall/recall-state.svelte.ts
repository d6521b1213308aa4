import type { Output } from '../../../engine/protocol/contract';
import type { RecallResponse } from '../../../engine/recall/types';
import { connection } from '../../app/connection.svelte';
import { handleError } from '../../app/handle-error.svelte';
import { createQuestionPreparer } from '../../app/question-preparer';
import { SessionPages } from '../../app/session-pages.svelte';
import { appendPage, buildSearchInput, EMPTY_FILTERS, MAX_PAGE, PAGE_SIZE, type RecallFilters } from './search-input';

export type SearchResult = Output<'search.messages'>;
export type SearchItem = SearchResult['items'][number];

/** recall.search accepts questions up to this long (contract). */
const MAX_ASK = 4000;
const ASK_LIMIT = 8;

/** The question as recall.search gets it. */
const askText = (question: string): string => question.trim().slice(0, MAX_ASK);

/**
 * The recall page's state. Module-level, so a search survives going to a conversation and coming back.
 * Only the newest request's answer is shown: a slow answer to an older query is dropped.
 */
class RecallSearch {
  query = $state('');
  filters = $state<RecallFilters>({ ...EMPTY_FILTERS });
  items = $state.raw<SearchItem[]>([]);
  total = $state(0);
  mode = $state<SearchResult['mode']>('all');
  /** The query the shown results answer ('' before any search). */
  searched = $state('');
  loading = $state(false);

  ask = $state.raw<RecallResponse | null>(null);
  asked = $state('');
  asking = $state(false);

  /** The session filter's choices, a page at a time. */
  readonly sessions = new SessionPages(() => connection.engine);

  #seq = 0;
  /** How many results a "more" still reading will show: a refresh meanwhile (a write elsewhere) reads that many. */
  #moreWanted = 0;
  #lastKey = '';
  #askSeq = 0;
  /** The question is embedded while it is typed, so "ask your memory" does not wait for the embedding endpoint. */
  #preparer = createQuestionPreparer({ engine: () => (connection.ready ? connection.engine : null), embeddings: () => connection.embeddings, as: 'ask' });

  /** The search field changed: the question as "ask" would send it is embedded once typing pauses. */
  typed(): void {
    this.#preparer.typed(askText(this.query));
  }

  /**
   * Searches from the top. Skips a search identical to the last one unless forced (typing pauses and
   * Enter may ask for the same thing twice); `keep` re-reads as many results as are shown (a refresh).
   */
  async search(opts: { force?: boolean; keep?: number } = {}): Promise<void> {
    const limit = Math.min(MAX_PAGE, Math.max(PAGE_SIZE, opts.keep ?? 0));
    const input = buildSearchInput({ query: this.query, filters: this.filters, limit });
    const key = JSON.stringify(input);
    if (!opts.force && key === this.#lastKey) return;
    this.#lastKey = key;
    const seq = ++this.#seq;
    this.#moreWanted = 0;
    if (!input) {
      this.items = [];
      this.total = 0;
      this.searched = '';
      this.loading = false;
      return;
    }
    this.loading = true;
    const res = await connection.engine.call('search.messages', input);
    if (seq !== this.#seq) return;
    this.loading = false;
    if (!res.ok) {
      this.#lastKey = ''; // the same search may be tried again
      return handleError(res.error, 'search.messages');
    }
    this.items = res.data.items;
    this.total = res.data.total;
    this.mode = res.data.mode;
    this.searched = input.query;
  }

  async loadMore(): Promise<void> {
    const input = buildSearchInput({ query: this.searched, filters: this.filters, offset: this.items.length });
    if (!input) return;
    const seq = ++this.#seq;
    this.loading = true;
    this.#moreWanted = this.items.length + PAGE_SIZE;
    const res = await connection.engine.call('search.messages', input);
    if (seq !== this.#seq) return;
    this.loading = false;
    this.#moreWanted = 0;
    if (!res.ok) return handleError(res.error, 'search.messages');
    this.items = appendPage(this.items, res.data.items);
    this.total = res.data.total;
  }

  /** After a write anywhere: the same search again, keeping as many results as are shown. */
  refresh(): void {
    if (this.searched) void this.search({ force: true, keep: Math.max(this.items.length, this.#moreWanted) });
    if (this.ask) void this.runAsk(this.asked);
  }

  async runAsk(question = this.query): Promise<void> {
    const query = askText(question);
    if (!query) return;
    this.#preparer.cancel();
    const seq = ++this.#askSeq;
    this.asking = true;
    const res = await connection.engine.call('recall.search', { query, limit: ASK_LIMIT });
    if (seq !== this.#askSeq) return;
    this.asking = false;
    if (!res.ok) return handleError(res.error, 'recall.search');
    this.ask = res.data;
    this.asked = query;
  }

  loadSessions(): Promise<void> {
    return this.sessions.reload();
  }

  clearFilters(): void {
    this.filters = { ...EMPTY_FILTERS };
  }
}

export const recallSearch = new RecallSearch();
