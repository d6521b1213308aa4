import { retrievalConfig } from '../../domain/recall/config';
import { lexicalStage, recallFromLexical } from '../../domain/recall/pipeline';
import type { TurnSource } from '../../domain/recall/turn-source';

/**
 * A fixed question (never user data) that takes every analysis the first recall makes of a question: a code
 * identifier and a path (the identifier regexes), English words and an irregular verb (keywords, verb forms), a
 * name and "you" (the speaker cue), a time ("last Saturday evening"), a question mark, Chinese (the segmenter and
 * the Chinese time rules).
 */
export const WARM_UP_QUESTION = 'What did you tell Sam about parseConfig in src/order.ts last Saturday evening? 上周六我们聊过登录超时的问题吗？';

/** A turn index with nothing in it: the warm-up reads no database. */
function emptySource(): TurnSource & { reads: number } {
  const s = {
    reads: 0,
    turnCountBound: () => (s.reads++, 0),
    newestMatches: () => (s.reads++, { count: 0, lowest: null }),
    windowStart: () => (s.reads++, null),
    ranked: () => (s.reads++, new Map()),
    facts: () => (s.reads++, new Map()),
    inRange: () => (s.reads++, []),
    mentions: () => (s.reads++, []),
    symbolHits: () => (s.reads++, new Map()),
    texts: () => (s.reads++, new Map()),
    summaryBlocks: () => (s.reads++, []),
    summaryTexts: () => (s.reads++, new Map()),
    recentFrom: () => (s.reads++, 0),
    totalSearched: () => (s.reads++, 0),
    sessionDocuments: () => (s.reads++, new Map()),
    sessionInfo: () => (s.reads++, new Map()),
  };
  return s;
}

/**
 * Cold start (issue 16 item 3): runs recall's pipeline on WARM_UP_QUESTION over an empty turn index, twice, so that
 * the first real recall finds its question analysis ready — the Unicode-class regexes compiled (V8 compiles a regex
 * on its first use and again to machine code on its second), Intl.Segmenter built, the verb-form table made, the
 * functions past their first calls. The DB worker runs it while sqlite-wasm's module is fetched and compiled, when
 * the worker's thread would otherwise wait; a CPU-sampled cold start put ~60 % of the first recall in this analysis.
 * It changes no state a recall reads (the pipeline's only caches are keyed by the text they were built from).
 * Returns how many index reads the pipeline asked for (all answered empty).
 */
export function warmRecallAnalysis(now: number): number {
  const source = emptySource();
  const config = retrievalConfig();
  const input = { query: WARM_UP_QUESTION, limit: 5, recentTurns: 0, blockSize: 10, includeSummaries: true };
  for (let i = 0; i < 2; i++) recallFromLexical(lexicalStage(input, { source, now, config }), { source, now, config });
  return source.reads;
}
