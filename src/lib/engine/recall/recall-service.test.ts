import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../domain/clock';
import type { RetrievalConfig } from '../../domain/recall/config';
import { createTestEngine, expectOk, type TestEngine } from '../testing';

/** A conversation of [role, text] lines, one minute apart. */
async function chat(t: TestEngine, lines: readonly (readonly ['user' | 'assistant', string])[]): Promise<string> {
  const { id } = expectOk(await t.engine.call('session.create', {}));
  for (const [role, content] of lines) {
    t.clock.advance(60_000);
    expectOk(await t.engine.call('message.append', { sessionId: id, role, content }));
  }
  return id;
}

const ask = async (t: TestEngine, query: string, limit = 5) => expectOk(await t.engine.call('recall.search', { query, limit }));
const engine = (retrieval?: Partial<RetrievalConfig>) => createTestEngine({ retrieval });

describe('recall.search (issue 8 retrieval)', () => {
  it('finds the reply to a matching question even though the reply repeats none of its words', async () => {
    for (const [neighbours, found] of [[true, true], [false, false]] as const) {
      const t = await engine({ neighbours });
      await chat(t, [
        ['user', 'I have been so busy with work and the kids lately.'],
        ['assistant', 'That sounds like a lot. What got you into marathon training?'],
        ['user', 'My doctor said I should move more, so I started with short jogs around the lake.'],
        ['assistant', 'Lakes are lovely in spring.'],
      ]);
      const res = await ask(t, 'What got me into marathon training?');
      expect(res.results.some((r) => r.content?.startsWith('My doctor said'))).toBe(found);
    }
  });

  it('learns who a name in the question is from how the two people address each other', async () => {
    const t = await engine();
    await chat(t, [
      ['user', 'Hey Bea! I started painting sunsets this month.'],
      ['assistant', 'Wow, Priya, that is great! I paint lakes and mountains myself.'],
      ['user', 'Thanks, Bea! Painting sunsets calms me down.'],
      ['assistant', 'Nice, Priya! Painting lakes helps me relax too.'],
    ]);
    const res = await ask(t, 'What does Bea paint?');
    expect(res.query.speaker).toEqual({ kind: 'named', names: ['Bea'], role: null });
    expect(res.results[0]?.role).toBe('assistant');
    expect(res.results[0]?.explain.signals.speaker).toBeGreaterThan(1);
  });

  it('reads "yesterday" against the clock: the conversation of that day comes first', async () => {
    const t = await engine();
    await chat(t, [['user', 'We should cache the product list in Redis.'], ['assistant', 'Redis with a five minute expiry works.']]);
    t.clock.advance(9 * DAY_MS);
    await chat(t, [['user', 'The cache keeps serving stale prices.'], ['assistant', 'Then lower the expiry of the cache.']]);
    t.clock.advance(DAY_MS);
    const timed = await ask(t, 'What did we say about the cache yesterday?');
    expect(timed.query.times.map((x) => x.expression)).toEqual(['yesterday']);
    expect(timed.query.recency).toBe('time-range');
    expect(timed.results[0]?.content).toContain('stale prices');
    const timeless = await ask(t, 'Redis cache expiry');
    expect(timeless.query.recency).toBe('timeless');
    expect(timeless.results.every((r) => r.explain.terms.recency === 1)).toBe(true);
  });

  it('does not search words found in a large share of all turns while rarer ones remain, once their lists are long', async () => {
    // Pruning is a cost control: a list shorter than half a rank budget is read whatever the share.
    const kept = await engine();
    await chat(kept, [['user', 'Project status.'], ['assistant', 'Noted project.'], ['user', 'The project will move its queue to Kafka.']]);
    expect((await ask(kept, 'project kafka')).query.pruned).toEqual([]);
    const t = await engine({ rankBudget: 10 });
    const lines: ['user' | 'assistant', string][] = [];
    for (let i = 0; i < 20; i++) lines.push(['user', `Project status update number ${i}.`], ['assistant', `Noted project item ${i}.`]);
    lines.push(['user', 'The project will move its queue to Kafka.']);
    await chat(t, lines);
    const res = await ask(t, 'project kafka');
    expect(res.query.pruned).toEqual(['project']);
    expect(res.query.terms).toEqual(['kafka']);
    expect(res.results[0]?.content).toContain('Kafka');
  });

  it('searches a rare word in full even when a common word of the question is only searched among its newest turns', async () => {
    // rankBudget 4: "project" (12 turns) is common and windowed to its newest 4; "kafka" (1 old turn) is rare.
    const t = await engine({ rankBudget: 4, termPruning: false });
    const lines: ['user' | 'assistant', string][] = [['user', 'The project queue moves to Kafka next quarter.']];
    for (let i = 0; i < 12; i++) lines.push(['assistant', `Project status update number ${i}.`]);
    await chat(t, lines);
    const res = await ask(t, 'project kafka');
    expect(res.query.windowed).toBe(true);
    expect(res.query.terms).toEqual(['project', 'kafka']);
    expect(res.results[0]?.content).toContain('Kafka');
  });

  it('searches an irregular verb in all its forms', async () => {
    for (const [verbForms, found] of [[true, true], [false, false]] as const) {
      const t = await engine({ verbForms });
      await chat(t, [
        ['user', 'Last week I wrote a screenplay about my grandmother.'],
        ['assistant', 'That sounds personal and brave.'],
      ]);
      const res = await ask(t, 'What did I write?');
      expect(res.results.some((r) => r.content?.includes('wrote a screenplay'))).toBe(found);
    }
  });

  it('counts the turns searched anew after every write, and only then', async () => {
    const t = await engine();
    const id = await chat(t, [['user', 'Redis cache expiry'], ['assistant', 'Five minutes.']]);
    const before = (await ask(t, 'cache')).totalSearched;
    expect(before).toBeGreaterThan(0);
    expect((await ask(t, 'expiry')).totalSearched).toBe(before);
    expectOk(await t.engine.call('message.append', { sessionId: id, role: 'user', content: 'And the session store?' }));
    expect((await ask(t, 'cache')).totalSearched).toBe(before + 1);
  });

  it('explains every hit with the signals behind its terms', async () => {
    const t = await engine();
    await chat(t, [['user', 'processPayment double charges customers'], ['assistant', 'Add an idempotency key to processPayment.']]);
    const res = await ask(t, 'processPayment bug');
    expect(res.results.length).toBeGreaterThan(0);
    for (const hit of res.results) {
      expect(hit.explain.signals.lane).toMatch(/text|neighbour|symbol|time/);
      expect(hit.explain.terms.symbol).toBeGreaterThan(0);
      expect(hit.relevance).toBeCloseTo(hit.explain.weighted.symbol + hit.explain.weighted.recency + hit.explain.weighted.context, 10);
    }
  });

  it('searches a category the question gathers over by its kinds (WordNet hyponyms), and says which kind matched', async () => {
    for (const hyponyms of [true, false]) {
      const t = await engine({ hyponyms });
      await chat(t, [
        ['user', 'Chess night at Omar’s again, I won twice.'],
        ['assistant', 'Congratulations! Two wins in a row is a streak.'],
        ['user', 'The kitchen tap is leaking again.'],
        ['assistant', 'A new washer usually fixes that.'],
      ]);
      const res = await ask(t, 'What board games have I played?');
      const chess = res.results.find((r) => r.content?.startsWith('Chess night'));
      if (hyponyms) {
        expect(res.query.categories).toEqual([{ category: 'board game', kinds: expect.arrayContaining(['chess', 'backgammon']) }]);
        expect(chess?.explain.kinds).toEqual([{ kind: 'chess', category: 'board game' }]);
      } else {
        expect(res.query.categories).toEqual([]);
        expect(chess).toBeUndefined();
      }
    }
  });

  it("a question that counts: a conversation's first statement of its words comes before the turns that talk it over (firstMention)", async () => {
    for (const firstMention of [true, false]) {
      const t = await engine({ firstMention });
      await chat(t, [
        ['user', 'Can you suggest a glaze for a mug? By the way, I went to my first pottery class on Monday.'],
        ['assistant', 'A clear glaze over a matte base is a safe start.'],
        ['user', 'I keep thinking about pottery: the pottery class tools, the pottery class fees, a pottery class for my niece.'],
        ['assistant', 'A class pass often lowers the fees.'],
      ]);
      const res = await ask(t, 'How many pottery classes have I been to?');
      const users = res.results.filter((r) => r.role === 'user');
      expect(users.map((r) => r.turnNo)).toEqual(firstMention ? [1, 2] : [2, 1]);
      // The explain view names the signal on the turn it lifted, and on no other.
      expect(users.map((r) => r.explain.signals.firstMention)).toEqual(firstMention ? [1.5, null] : [null, null]);
    }
  });

  it('leaves a question that gathers over nothing as it was', async () => {
    const t = await engine();
    await chat(t, [['user', 'Chess night at Omar’s again, I won twice.']]);
    const res = await ask(t, 'Where did I leave the board?');
    expect(res.query.categories).toEqual([]);
    expect(res.results).toEqual([]);
  });
});
