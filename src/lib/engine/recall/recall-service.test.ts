import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../domain/clock';
import type { RetrievalConfig } from '../../domain/recall/config';
import type { SemanticService } from '../embeddings/semantic-service';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { createRecallService } from './recall-service';

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

  it('searches a rare word in full even when a common word of the question is only searched among its newest turns', async () => {
    // rankBudget 4: "project" (12 turns) is common and windowed to its newest 4; "kafka" (1 old turn) is rare.
    const t = await engine({ rankBudget: 4 });
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
      expect(hit.explain.signals.semantic).toBeNull();
      expect(hit.explain.terms.symbol).toBeGreaterThan(0);
      expect(hit.relevance).toBeCloseTo(hit.explain.weighted.symbol + hit.explain.weighted.recency + hit.explain.weighted.context, 10);
    }
  });
});

describe('recall with the meaning lane: the lexical lanes do not wait for the question embedding (issue 18)', () => {
  it('reads the bm25 lanes while the embedding is on its way, then fuses the neighbours it brings', async () => {
    const t = await engine();
    await chat(t, [
      ['user', 'The kitchen tap is leaking again.'],
      ['assistant', 'A new washer usually fixes that.'],
    ]);
    const events: string[] = [];
    const traced = new Proxy(t.driver, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'all' && prop !== 'get') return typeof value === 'function' ? value.bind(target) : value;
        return (sql: string, params?: unknown[]) => {
          if (sql.includes('MATCH')) events.push('bm25');
          return (value as (s: string, p?: unknown[]) => unknown).call(target, sql, params);
        };
      },
    });
    let arrive: (lane: Awaited<ReturnType<SemanticService['lane']>>) => void = () => {};
    const semantic = {
      lane: () => {
        events.push('embedding asked');
        return new Promise((resolve) => (arrive = resolve));
      },
    } as unknown as SemanticService;
    const service = createRecallService({ env: { driver: traced, clock: t.clock, retrieval: undefined }, semantic });
    const answer = service.recall({ query: 'leaking tap', limit: 5, recentTurns: 0, blockSize: 20, includeSummaries: false });
    await Promise.resolve();
    // The bm25 reads ran after the embedding was asked for and before it arrived.
    expect(events[0]).toBe('embedding asked');
    expect(events).toContain('bm25');
    events.push('embedding arrived');
    const washer = expectOk(await t.engine.call('recall.search', { query: 'washer', limit: 1 })).results[0]?.turnId as number;
    arrive({ hits: new Map([[washer, 0.9]]), info: { state: 'on', model: 'm', reason: null, coverage: null } });
    const res = await answer;
    expect(res.query.semantic.state).toBe('on');
    expect(res.results.map((r) => r.turnId)).toContain(washer);
  });
});
