import { retrievalConfig } from '../../domain/recall/config';
import { lexicalStage, recallFromLexical } from '../../domain/recall/pipeline';
import type { TurnFacts } from '../../domain/recall/rank-turns';
import type { SummaryBlock, TurnSource, TurnText } from '../../domain/recall/turn-source';
import type { TimeRange } from '../../domain/text/time-calendar';

/**
 * A fixed question (never user data) that takes every analysis the first recall makes of a question: a code
 * identifier and a path (the identifier regexes), English words and an irregular verb (keywords, verb forms), a
 * name and "you" (the speaker cue), a time ("last Saturday evening"), a question mark, Chinese (the segmenter and
 * the Chinese time rules).
 */
export const WARM_UP_QUESTION = 'What did you tell Sam about parseConfig in src/order.ts last Saturday evening? 上周六我们聊过登录超时的问题吗？';

/**
 * The warm-up's turns: a fixed conversation pair written for it (never user data), shaped so that every step after
 * the question analysis has something to do — text, symbol and time candidates, neighbours, a question and its
 * answer, two near-copies, a rolling summary standing in for its block, two conversations to rank.
 */
const WARM_UP_TURNS: readonly (Omit<TurnText, 'id' | 'createdAt' | 'title'> & { hoursAgo: number })[] = [
  { sessionId: 'warm-up-a', turnNo: 1, role: 'user', content: 'Sam asked why parseConfig in src/order.ts fails on an empty file.', hoursAgo: 170 },
  { sessionId: 'warm-up-a', turnNo: 2, role: 'assistant', content: 'parseConfig reads src/order.ts before the defaults are set; the fix sets them first.', hoursAgo: 170 },
  { sessionId: 'warm-up-a', turnNo: 3, role: 'user', content: 'Did you tell Sam about the timeout?', hoursAgo: 169 },
  { sessionId: 'warm-up-a', turnNo: 4, role: 'assistant', content: 'Yes: I told Sam the timeout is thirty seconds and parseConfig now reads it.', hoursAgo: 169 },
  { sessionId: 'warm-up-b', turnNo: 1, role: 'user', content: '上周六我们聊过登录超时的问题吗？', hoursAgo: 150 },
  { sessionId: 'warm-up-b', turnNo: 2, role: 'assistant', content: '聊过：登录超时是因为会话过期，parseConfig 里的超时设置太短。', hoursAgo: 150 },
  { sessionId: 'warm-up-b', turnNo: 3, role: 'user', content: '登录超时的问题后来解决了吗？', hoursAgo: 20 },
  { sessionId: 'warm-up-b', turnNo: 4, role: 'assistant', content: '聊过：登录超时是因为会话过期，parseConfig 里的超时设置太短了。', hoursAgo: 20 },
];
const TITLES: Record<string, string> = { 'warm-up-a': 'parseConfig and the timeout', 'warm-up-b': '登录超时' };
const HOUR = 3_600_000;

/** A turn index over WARM_UP_TURNS, answered in memory: the warm-up reads no database. */
function warmUpSource(now: number): TurnSource & { reads: number; asked: Set<keyof TurnSource> } {
  const turns: TurnText[] = WARM_UP_TURNS.map(({ hoursAgo, ...t }, i) => ({ ...t, id: i + 1, createdAt: now - hoursAgo * HOUR, title: TITLES[t.sessionId] ?? '' }));
  const byId = new Map(turns.map((t) => [t.id, t]));
  const ids = turns.map((t) => t.id);
  const s = {
    reads: 0,
    asked: new Set<keyof TurnSource>(),
    read(method: keyof TurnSource): void {
      s.reads++;
      s.asked.add(method);
    },
    turnCountBound: () => (s.read('turnCountBound'), turns.length),
    newestMatches: (_match: string, cap: number) => (s.read('newestMatches'), { count: Math.min(cap, turns.length), lowest: 1 }),
    windowStart: () => (s.read('windowStart'), null),
    ranked: (_match: string, opts: { limit: number; from: number }) => (
      s.read('ranked'), new Map(ids.filter((id) => id >= opts.from).slice(0, opts.limit).map((id) => [id, -1 - id / 10]))
    ),
    facts(list: Iterable<number>, around: readonly number[], opts: { farAround: number }): Map<number, TurnFacts> {
      s.read('facts');
      const wanted = new Set(list);
      around.forEach((id, i) => {
        const reach = i < opts.farAround ? 2 : 1;
        for (let x = id - reach; x <= id + reach; x++) wanted.add(x);
      });
      const out = new Map<number, TurnFacts>();
      for (const id of wanted) {
        const t = byId.get(id);
        if (!t) continue;
        const same = (n: number) => (byId.get(n)?.sessionId === t.sessionId ? n : null);
        const question = t.content.includes('?') || t.content.includes('？');
        out.set(id, { id, sessionId: t.sessionId, turnNo: t.turnNo, role: t.role, createdAt: t.createdAt, question, prev: same(id - 1), next: same(id + 1) });
      }
      return out;
    },
    inRange: (range: TimeRange, limit: number) => (s.read('inRange'), turns.filter((t) => t.createdAt >= range.start && t.createdAt < range.end).slice(0, limit).map((t) => t.id)),
    mentions: (_match: string, limit: number) => (s.read('mentions'), turns.slice(0, limit).map(({ sessionId, role, content }) => ({ sessionId, role, content }))),
    symbolHits: () => (s.read('symbolHits'), new Map([[2, new Map([['parseconfig', 1]])], [6, new Map([['parseconfig', 0.5]])]])),
    texts: (list: Iterable<number>) => (s.read('texts'), new Map([...list].flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : [])))),
    summaryBlocks: (asked: readonly { sessionId: string; turnNo: number }[]): SummaryBlock[] => (
      s.read('summaryBlocks'),
      asked.some((t) => t.sessionId === 'warm-up-a' && t.turnNo <= 2) ? [{ id: 1, sessionId: 'warm-up-a', startTurn: 1, endTurn: 2, createdAt: now - 160 * HOUR }] : []
    ),
    summaryTexts: (list: Iterable<number>) => (s.read('summaryTexts'), new Map([...list].filter((id) => id === 1).map((id) => [id, { summary: 'Sam and parseConfig: the defaults are now set first.', title: TITLES['warm-up-a']! }]))),
    recentFrom: () => (s.read('recentFrom'), 0),
    totalSearched: () => (s.read('totalSearched'), turns.length + 1),
    sessionDocuments: () => (s.read('sessionDocuments'), new Map([['warm-up-a', 2], ['warm-up-b', 1]])),
    sessionInfo: (list: readonly string[]) => (s.read('sessionInfo'), new Map(list.map((id) => [id, { title: TITLES[id] ?? '', lastActive: now - HOUR }]))),
  };
  return s;
}

/**
 * Cold start (issue 16 item 3): runs recall's pipeline on WARM_UP_QUESTION over the warm-up's own turns (in memory),
 * twice, so that the first real recall finds its question analysis ready — the Unicode-class regexes compiled (V8 compiles a regex
 * on its first use and again to machine code on its second), Intl.Segmenter built, the verb-form table made, the
 * functions past their first calls. The DB worker runs it while sqlite-wasm's module is fetched and compiled, when
 * the worker's thread would otherwise wait; a CPU-sampled cold start put ~60 % of the first recall in this analysis.
 * It changes no state a recall reads (the pipeline's only caches are keyed by the text they were built from).
 * Returns how many index reads the pipeline asked for, which reads they were, and how many results the last pass
 * returned.
 */
export function warmRecallAnalysis(now: number): { reads: number; asked: Set<keyof TurnSource>; results: number } {
  const source = warmUpSource(now);
  const config = retrievalConfig();
  const input = { query: WARM_UP_QUESTION, limit: 5, recentTurns: 0, blockSize: 10, includeSummaries: true };
  let results = 0;
  for (let i = 0; i < 2; i++) results = recallFromLexical(lexicalStage(input, { source, now, config }), { source, now, config }).results.length;
  return { reads: source.reads, asked: source.asked, results };
}
