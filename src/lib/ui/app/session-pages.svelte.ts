import type { Session } from '../../domain/conversation/types';
import type { EngineCaller } from '../../engine/client/caller';

/**
 * The conversations, a page at a time, newest activity first: the chat's list, the recall page's
 * session filter and the backup pickers all show them this way, so none stops at some fixed number.
 * "More" appends the next page; `reload` (after a write anywhere) reads as many as are shown.
 */
export const SESSION_PAGE = 50;
/** session.list's own limit per call. */
const MAX_PER_CALL = 200;

export class SessionPages {
  items = $state.raw<Session[]>([]);
  total = $state(0);
  loading = $state(false);
  #seq = 0;

  constructor(
    private readonly engine: () => EngineCaller,
    private readonly filter: () => { starredOnly?: boolean } = () => ({}),
    private readonly pageSize = SESSION_PAGE,
  ) {}

  get hasMore(): boolean {
    return this.items.length < this.total;
  }

  /** From the top again, as many as are shown now (at least a page). */
  async reload(): Promise<void> {
    await this.#read(0, Math.max(this.pageSize, this.items.length), []);
  }

  async loadMore(): Promise<void> {
    if (this.hasMore) await this.#read(this.items.length, this.pageSize, this.items);
  }

  async #read(offset: number, count: number, keep: Session[]): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    const got: Session[] = [];
    let total = this.total;
    while (got.length < count) {
      const limit = Math.min(MAX_PER_CALL, count - got.length);
      const res = await this.engine().call('session.list', { ...this.filter(), limit, offset: offset + got.length });
      if (seq !== this.#seq) return;
      if (!res.ok) break;
      got.push(...res.data.items);
      total = res.data.total;
      if (res.data.items.length < limit) break;
    }
    this.loading = false;
    // A conversation that moved up while paging would come twice: keep its first place.
    const seen = new Set(keep.map((s) => s.id));
    this.items = [...keep, ...got.filter((s) => !seen.has(s.id) && seen.add(s.id))];
    this.total = total;
  }
}
