import type { MemoryCategory, MemorySource } from '../../../domain/memory';
import type { Input } from '../../../engine/protocol/contract';

/** The memory manager's list: 20 a page (seed 001 GET /memory/long-term?limit&offset). */
export const PAGE_SIZE = 20;
/** memory.list accepts a query of at most this many characters (contract). */
const MAX_QUERY = 500;

/** The list's filters as the form holds them: '' means "any". */
export interface MemoryFilters {
  category: MemoryCategory | '';
  source: MemorySource | '';
  scope: 'global' | 'project' | '';
  status: 'active' | 'superseded' | 'all';
}

export const EMPTY_FILTERS: Readonly<MemoryFilters> = { category: '', source: '', scope: '', status: 'active' };

export function hasFilters(filters: MemoryFilters): boolean {
  return (Object.keys(EMPTY_FILTERS) as (keyof MemoryFilters)[]).some((k) => filters[k] !== EMPTY_FILTERS[k]);
}

/** Filters, search text and page (0-based) → memory.list's input; "any" filters and blank text are left out. */
export function buildListInput(opts: { filters: MemoryFilters; query: string; page: number }): Input<'memory.list'> {
  const { filters } = opts;
  const page = Math.max(0, Math.floor(opts.page));
  const query = opts.query.trim().slice(0, MAX_QUERY);
  return {
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
    status: filters.status,
    sort: 'updated',
    ...(filters.category ? { category: filters.category } : {}),
    ...(filters.source ? { source: filters.source } : {}),
    ...(filters.scope ? { scope: filters.scope } : {}),
    ...(query ? { query } : {}),
  };
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / PAGE_SIZE));
}

/** The last page that still has rows (after a delete emptied the last page, or another tab cleared some). */
export function clampPage(page: number, total: number): number {
  return Math.min(Math.max(0, page), pageCount(total) - 1);
}

/** "21–40 of 340": the 1-based positions of the shown rows; 0–0 when nothing is shown. */
export function pageRange(opts: { page: number; shown: number; total: number }): { from: number; to: number; total: number } {
  if (opts.shown <= 0) return { from: 0, to: 0, total: opts.total };
  const from = opts.page * PAGE_SIZE + 1;
  return { from, to: from + opts.shown - 1, total: opts.total };
}
