import { describe, expect, it } from 'vitest';
import { appendPage, buildSearchInput, chatLink, dateRangeToMs, EMPTY_FILTERS, localDayStart, MAX_PAGE, PAGE_SIZE } from './search-input';

// Expected instants are built with the Date constructor in local time: the page works in the reader's zone.
const local = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();

describe('dateRangeToMs', () => {
  it.each([
    { range: { from: '', to: '' }, want: { reversed: false } },
    { range: { from: '2024-03-05', to: '' }, want: { from: local(2024, 3, 5), reversed: false } },
    // The end day is included: `to` is the next local midnight, exclusive.
    { range: { from: '', to: '2024-03-05' }, want: { to: local(2024, 3, 6), reversed: false } },
    { range: { from: '2024-03-05', to: '2024-03-05' }, want: { from: local(2024, 3, 5), to: local(2024, 3, 6), reversed: false } },
    { range: { from: '2024-12-31', to: '2024-12-31' }, want: { from: local(2024, 12, 31), to: local(2025, 1, 1), reversed: false } },
    { range: { from: '2024-02-28', to: '2024-02-29' }, want: { from: local(2024, 2, 28), to: local(2024, 3, 1), reversed: false } },
    { range: { from: '2024-03-06', to: '2024-03-05' }, want: { from: local(2024, 3, 6), to: local(2024, 3, 6), reversed: true } },
    { range: { from: '2023-02-29', to: 'garbage' }, want: { reversed: false } },
  ])('$range.from … $range.to', ({ range, want }) => {
    expect(dateRangeToMs(range)).toEqual(want);
  });

  it('covers every moment of the chosen day and none of the next', () => {
    const { from, to } = dateRangeToMs({ from: '2024-07-01', to: '2024-07-01' });
    const lastMoment = new Date(2024, 6, 1, 23, 59, 59, 999).getTime();
    const nextMorning = new Date(2024, 6, 2, 0, 0, 0, 0).getTime();
    expect(lastMoment >= from! && lastMoment < to!).toBe(true);
    expect(nextMorning < to!).toBe(false);
  });
});

describe('localDayStart', () => {
  it.each(['2024-13-01', '2024-00-10', '2024-04-31', '24-01-01', '2024-1-1', ''])('rejects %j', (day) => {
    expect(localDayStart(day)).toBeUndefined();
  });
});

describe('buildSearchInput', () => {
  it('is null for an empty or blank query', () => {
    expect(buildSearchInput({ query: '   ', filters: EMPTY_FILTERS })).toBeNull();
  });

  it('sends the trimmed query and no filter the person did not set', () => {
    expect(buildSearchInput({ query: '  北京 大学 ', filters: EMPTY_FILTERS })).toEqual({
      query: '北京 大学',
      starredOnly: false,
      limit: PAGE_SIZE,
      offset: 0,
    });
  });

  it('sends every filter that is set', () => {
    const input = buildSearchInput({
      query: 'processPayment',
      filters: { sessionId: 's-1', from: '2024-03-01', to: '2024-03-31', role: 'assistant', starredOnly: true },
      offset: 40,
    });
    expect(input).toEqual({
      query: 'processPayment',
      sessionId: 's-1',
      role: 'assistant',
      starredOnly: true,
      from: local(2024, 3, 1),
      to: local(2024, 4, 1),
      limit: PAGE_SIZE,
      offset: 40,
    });
  });

  it('keeps paging within what the engine accepts', () => {
    const input = buildSearchInput({ query: 'x', filters: EMPTY_FILTERS, limit: 1000, offset: -5 });
    expect(input).toMatchObject({ limit: MAX_PAGE, offset: 0 });
  });

  it('cuts an overlong query to the engine limit instead of failing', () => {
    expect(buildSearchInput({ query: 'a'.repeat(600), filters: EMPTY_FILTERS })?.query).toHaveLength(500);
  });
});

describe('chatLink', () => {
  it.each([
    { session: 'abc', message: 42, want: '/chat?session=abc&message=42' },
    { session: 'abc', message: null, want: '/chat?session=abc' },
    { session: 'a b&c', message: 1, want: '/chat?session=a+b%26c&message=1' },
  ])('$want', ({ session, message, want }) => {
    expect(chatLink(session, message)).toBe(want);
  });
});

describe('appendPage', () => {
  const item = (id: number) => ({ message: { id } });
  it.each([
    { shown: [1, 2], page: [3, 4], want: [1, 2, 3, 4] },
    { shown: [1, 2], page: [2, 3], want: [1, 2, 3] },
    { shown: [], page: [5], want: [5] },
    { shown: [1], page: [1], want: [1] },
  ])('$shown + $page → $want', ({ shown, page, want }) => {
    expect(appendPage(shown.map(item), page.map(item)).map((i) => i.message.id)).toEqual(want);
  });
});
