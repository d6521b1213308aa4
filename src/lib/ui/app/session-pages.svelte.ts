import type { Session } from '../../domain/conversation/types';
import type { EngineCaller } from '../../engine/client/caller';
import type { SessionChangeSet } from '../../engine/store/session-changes';

/**
 * The conversations, a page at a time, newest activity first: the chat's list, the recall page's
 * session filter and the backup pickers all show them this way, so none stops at some fixed number.
 * "More" appends the next page; `reload` reads as many as are shown; `applyChange` (after a write that changed
 * some conversations, issue 16) reads just those and puts them where they now belong.
 */
export const SESSION_PAGE = 50;
/** session.list's own limit per call. */
const MAX_PER_CALL = 200;

export class SessionPages {
  items = $state.raw<Session[]>([]);
  total = $state(0);
  loading = $state(false);
  /**
   * Reads of the list (reload, more, a change) run one after another: a reload that came while "more" was reading
   * used to answer last with one page, and the person's "more" was lost.
   */
  #queue: Promise<void> = Promise.resolve();
  /** A reload waiting its turn: a burst of writes asks for one read, not one each. */
  #pendingReload: Promise<void> | null = null;

  constructor(
    private readonly engine: () => EngineCaller,
    private readonly filter: () => { starredOnly?: boolean } = () => ({}),
    private readonly pageSize = SESSION_PAGE,
  ) {}

  get hasMore(): boolean {
    return this.items.length < this.total;
  }

  /** From the top again, as many as are shown when its turn comes (at least a page). */
  reload(): Promise<void> {
    if (this.#pendingReload) return this.#pendingReload;
    const run = this.#enqueue(() => {
      this.#pendingReload = null;
      return this.#read(0, Math.max(this.pageSize, this.items.length), []);
    });
    this.#pendingReload = run;
    return run;
  }

  /**
   * A write changed these conversations: they are read again (one call, with the new total) and moved to their
   * place in the list (newest activity first); deleted ones and ones that no longer pass the filter go. One that
   * now sorts after the last shown row while more are unread waits for "more". 'many': read the list again.
   */
  applyChange(change: SessionChangeSet): Promise<void> {
    if (change === 'many') return this.reload();
    const touched = new Set([...change.changed, ...change.deleted]);
    if (touched.size === 0) return Promise.resolve();
    return this.#enqueue(() => this.#applyChange(change.changed, touched));
  }

  async #applyChange(changed: string[], touched: Set<string>): Promise<void> {
    const res = await this.engine().call('session.getMany', { ids: changed, ...this.filter() });
    if (!res.ok) {
      await this.#read(0, Math.max(this.pageSize, this.items.length), []);
      return;
    }
    const boundary = this.hasMore ? this.items.at(-1) : undefined;
    const items = this.items.filter((s) => !touched.has(s.id));
    for (const s of res.data.items) {
      if (boundary && !touched.has(boundary.id) && before(boundary, s)) continue;
      const at = items.findIndex((x) => before(s, x));
      items.splice(at === -1 ? items.length : at, 0, s);
    }
    this.items = items;
    this.total = res.data.total;
  }

  loadMore(): Promise<void> {
    return this.#enqueue(async () => {
      if (this.hasMore) await this.#read(this.items.length, this.pageSize, this.items);
    });
  }

  #enqueue(read: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(read);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #read(offset: number, count: number, keep: Session[]): Promise<void> {
    this.loading = true;
    const got: Session[] = [];
    let total = this.total;
    try {
      while (got.length < count) {
        const limit = Math.min(MAX_PER_CALL, count - got.length);
        const res = await this.engine().call('session.list', { ...this.filter(), limit, offset: offset + got.length });
        if (!res.ok) break;
        got.push(...res.data.items);
        total = res.data.total;
        if (res.data.items.length < limit) break;
      }
    } finally {
      this.loading = false;
    }
    // A conversation that moved up while paging would come twice: keep its first place.
    const seen = new Set(keep.map((s) => s.id));
    this.items = [...keep, ...got.filter((s) => !seen.has(s.id) && seen.add(s.id))];
    this.total = total;
  }
}

/** The list's order (session.list): newest activity first, then by id. */
function before(a: Session, b: Session): boolean {
  return a.lastActive > b.lastActive || (a.lastActive === b.lastActive && a.id < b.id);
}
