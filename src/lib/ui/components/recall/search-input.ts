import type { Input } from '../../../engine/protocol/contract';

/** The recall page's filters as the inputs hold them ('' = no filter; dates as <input type=date> gives them). */
export interface RecallFilters {
  sessionId: string;
  /** 'YYYY-MM-DD' or '' */
  from: string;
  /** 'YYYY-MM-DD' or '': the whole day counts. */
  to: string;
  role: '' | 'user' | 'assistant';
  starredOnly: boolean;
}

export const EMPTY_FILTERS: RecallFilters = { sessionId: '', from: '', to: '', role: '', starredOnly: false };

export const PAGE_SIZE = 20;
/** search.messages accepts at most this many per call (contract). */
export const MAX_PAGE = 100;
/** search.messages' query limit (contract). */
export const MAX_QUERY = 500;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a 'YYYY-MM-DD' day; undefined for '' or an impossible date (2024-02-30). */
export function localDayStart(day: string, addDays = 0): number | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(y, mo, d);
  if (date.getFullYear() !== y || date.getMonth() !== mo || date.getDate() !== d) return undefined;
  // Via the calendar, not + 86 400 000: a day with a daylight-saving change is 23 or 25 hours long.
  return new Date(y, mo, d + addDays).getTime();
}

/**
 * The chosen days as the engine's time range: `from` at the first day's local midnight, `to` exclusive
 * at the midnight after the last day, so the whole last day is included.
 */
export function dateRangeToMs(range: Pick<RecallFilters, 'from' | 'to'>): { from?: number; to?: number; reversed: boolean } {
  const from = localDayStart(range.from);
  const to = localDayStart(range.to, 1);
  const out: { from?: number; to?: number; reversed: boolean } = { reversed: from !== undefined && to !== undefined && from >= to };
  if (from !== undefined) out.from = from;
  if (to !== undefined) out.to = to;
  return out;
}

/** The search.messages input for a query and filters; null when there is nothing to search for. */
export function buildSearchInput(opts: {
  query: string;
  filters: RecallFilters;
  limit?: number;
  offset?: number;
}): Input<'search.messages'> | null {
  const query = opts.query.trim().slice(0, MAX_QUERY);
  if (!query) return null;
  const { filters } = opts;
  const range = dateRangeToMs(filters);
  const input: Input<'search.messages'> = {
    query,
    starredOnly: filters.starredOnly,
    limit: Math.min(MAX_PAGE, Math.max(1, opts.limit ?? PAGE_SIZE)),
    offset: Math.max(0, opts.offset ?? 0),
  };
  if (filters.sessionId) input.sessionId = filters.sessionId;
  if (filters.role) input.role = filters.role;
  if (range.from !== undefined) input.from = range.from;
  if (range.to !== undefined) input.to = range.to;
  return input;
}

/** Where a result opens: the chat page scrolls to and highlights the message. */
export function chatLink(sessionId: string, messageId?: number | null): string {
  const params = new URLSearchParams({ session: sessionId });
  if (messageId !== undefined && messageId !== null) params.set('message', String(messageId));
  return `/chat?${params.toString()}`;
}

/**
 * Appends a further page, skipping messages already shown: a message written meanwhile can shift the
 * ranking by one, and the same message must not appear twice.
 */
export function appendPage<T extends { message: { id: number } }>(shown: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(shown.map((item) => item.message.id));
  return [...shown, ...page.filter((item) => !seen.has(item.message.id))];
}
