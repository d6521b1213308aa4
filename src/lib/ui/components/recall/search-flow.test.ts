import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, T0 } from '../../../engine/testing';
import { appendPage, buildSearchInput, EMPTY_FILTERS, type RecallFilters } from './search-input';

/** 'YYYY-MM-DD' of an instant in the reader's (local) calendar, as <input type=date> would hold it. */
function localDay(ms: number, addDays = 0): string {
  const d = new Date(ms);
  d.setDate(d.getDate() + addDays);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function seeded() {
  const t = await createTestEngine();
  const session = expectOk(await t.engine.call('session.create', { title: 'Payments' }));
  expectOk(await t.engine.call('message.append', { sessionId: session.id, role: 'user', content: 'Why does processPayment fail twice?' }));
  expectOk(await t.engine.call('message.append', { sessionId: session.id, role: 'assistant', content: 'processPayment retries without a lock.' }));
  t.clock.advance(2 * 86_400_000);
  expectOk(await t.engine.call('message.append', { sessionId: session.id, role: 'user', content: 'Is processPayment fixed now?' }));
  return { ...t, session };
}

async function search(t: Awaited<ReturnType<typeof seeded>>, query: string, filters: Partial<RecallFilters>, offset = 0, limit?: number) {
  const input = buildSearchInput({ query, filters: { ...EMPTY_FILTERS, ...filters }, offset, ...(limit ? { limit } : {}) });
  return expectOk(await t.engine.call('search.messages', input!));
}

describe('recall page filters against the engine', () => {
  it.each([
    { name: 'no filter', filters: {}, want: 3 },
    { name: 'the first day, inclusive', filters: { from: localDay(T0), to: localDay(T0) }, want: 2 },
    { name: 'from the day after', filters: { from: localDay(T0, 1) }, want: 1 },
    { name: 'until the day before', filters: { to: localDay(T0, -1) }, want: 0 },
    { name: 'assistant only', filters: { role: 'assistant' as const }, want: 1 },
    { name: 'starred only, nothing starred', filters: { starredOnly: true }, want: 0 },
  ])('$name → $want', async ({ filters, want }) => {
    const t = await seeded();
    expect((await search(t, 'processPayment', filters)).total).toBe(want);
  });

  it('finds a conversation by its id filter', async () => {
    const t = await seeded();
    const other = expectOk(await t.engine.call('session.create', { title: 'Other' }));
    expectOk(await t.engine.call('message.append', { sessionId: other.id, role: 'user', content: 'processPayment elsewhere' }));
    expect((await search(t, 'processPayment', {})).total).toBe(4);
    expect((await search(t, 'processPayment', { sessionId: other.id })).total).toBe(1);
  });

  it('pages through every result once with Load more', async () => {
    const t = await seeded();
    const first = await search(t, 'processPayment', {}, 0, 2);
    const rest = await search(t, 'processPayment', {}, first.items.length, 2);
    const all = appendPage(first.items, rest.items);
    expect(all).toHaveLength(3);
    expect(new Set(all.map((i) => i.message.id)).size).toBe(3);
  });

  it('issue 15: a reply’s markdown shows as text in its snippet', async () => {
    const t = await seeded();
    expectOk(await t.engine.call('message.append', { sessionId: t.session.id, role: 'assistant', content: '## Reply style\n**What I remember:** processPayment needs a `lock`.' }));
    const hit = (await search(t, 'lock', {})).items.find((i) => i.message.content.startsWith('##'));
    const shown = hit?.snippet.segments.map((x) => x.text).join('') ?? '';
    expect(shown).toBe('Reply style What I remember: processPayment needs a lock.');
  });
});
