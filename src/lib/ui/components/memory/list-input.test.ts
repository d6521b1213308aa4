import { describe, expect, it } from 'vitest';
import { buildListInput, clampPage, EMPTY_FILTERS, hasFilters, pageCount, pageRange, PAGE_SIZE, type MemoryFilters } from './list-input';

const filters = (over: Partial<MemoryFilters> = {}): MemoryFilters => ({ ...EMPTY_FILTERS, ...over });

describe('memory list input', () => {
  it.each([
    { name: 'nothing chosen', f: filters(), query: '', page: 0, want: { limit: 20, offset: 0, status: 'active', sort: 'updated' } },
    {
      name: 'every filter',
      f: filters({ category: 'preference', source: 'inferred', scope: 'project', status: 'superseded' }),
      query: '',
      page: 0,
      want: { limit: 20, offset: 0, status: 'superseded', sort: 'updated', category: 'preference', source: 'inferred', scope: 'project' },
    },
    { name: 'search text is trimmed', f: filters(), query: '  咖啡  ', page: 0, want: { limit: 20, offset: 0, status: 'active', sort: 'updated', query: '咖啡' } },
    { name: 'blank search is left out', f: filters(), query: '   ', page: 0, want: { limit: 20, offset: 0, status: 'active', sort: 'updated' } },
    { name: 'third page', f: filters({ status: 'all' }), query: '', page: 2, want: { limit: 20, offset: 40, status: 'all', sort: 'updated' } },
    { name: 'a negative page is the first', f: filters(), query: '', page: -3, want: { limit: 20, offset: 0, status: 'active', sort: 'updated' } },
  ])('$name', ({ f, query, page, want }) => {
    expect(buildListInput({ filters: f, query, page })).toEqual(want);
  });

  it('cuts a pasted search to what the engine accepts', () => {
    expect(buildListInput({ filters: filters(), query: 'x'.repeat(800), page: 0 }).query).toHaveLength(500);
  });

  it.each([
    { f: filters(), want: false },
    { f: filters({ category: 'fact' }), want: true },
    { f: filters({ status: 'all' }), want: true },
  ])('hasFilters($f) → $want', ({ f, want }) => {
    expect(hasFilters(f)).toBe(want);
  });
});

describe('memory list pages', () => {
  it.each([
    { page: 0, shown: 12, total: 12, want: { from: 1, to: 12, total: 12 } },
    { page: 1, shown: 20, total: 340, want: { from: 21, to: 40, total: 340 } },
    { page: 16, shown: 20, total: 340, want: { from: 321, to: 340, total: 340 } },
    { page: 0, shown: 0, total: 0, want: { from: 0, to: 0, total: 0 } },
  ])('page $page with $shown shown of $total', ({ page, shown, total, want }) => {
    expect(pageRange({ page, shown, total })).toEqual(want);
  });

  it.each([
    { total: 0, pages: 1 },
    { total: PAGE_SIZE, pages: 1 },
    { total: PAGE_SIZE + 1, pages: 2 },
    { total: 340, pages: 17 },
  ])('$total memories make $pages pages', ({ total, pages }) => {
    expect(pageCount(total)).toBe(pages);
  });

  it.each([
    { page: 3, total: 41, want: 2 },
    { page: 1, total: 20, want: 0 },
    { page: 0, total: 0, want: 0 },
    { page: 1, total: 300, want: 1 },
  ])('page $page with $total memories stays on page $want', ({ page, total, want }) => {
    expect(clampPage(page, total)).toBe(want);
  });
});
