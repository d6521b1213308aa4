/**
 * Questions that gather (issue 8, round 2): "How many concerts have I been to this year?", "What is the total
 * number of marathons I have run?", "Which did I start first, the pottery class or the choir?" — the answer is
 * put together from several conversations, one fact in each. A conversation that matches well (the one about
 * concert tickets) otherwise fills a list of five with its own turns, and the others never show. For such a
 * question a conversation's first `spreadFree` hits count fully and every later one `spreadFactor` more times on its
 * context term (maximal marginal relevance with the conversation as the unit of redundancy). Other questions keep
 * their ranking: their evidence is often several turns of one stretch of conversation (docs/design/06-retrieval.md).
 */
import type { RankedTurn } from './rank-turns';
import { recallScore } from './score';

const GATHER_EN =
  /\bhow\s+(?:many|much)\b|\b(?:in\s+)?total\b|\ball\s+the\b|\bcombined\b|\baltogether\b|\bboth\b|\bdifferent\b|\beach\b|\bfirst\b|\bcompar(?:e|ed|ing)\b|\bor\b/iu;
const GATHER_ZH = /一共|总共|总数|多少|几[个次本只位家种条件张岁]|比较|还是|所有|哪个先/u;

/** Does the question count, total, compare or choose — put its answer together from several places? */
export function gathers(question: string): boolean {
  const text = question.normalize('NFKC');
  return GATHER_EN.test(text) || GATHER_ZH.test(text);
}

/**
 * The ranking re-ordered greedily: each step takes the turn with the best relevance when its context term counts
 * `factor` to the power of how many hits its conversation has beyond `free` (relevance only falls as a list fills,
 * so the list stays in order of the relevance shown). `signals.spread` keeps the multiplier a turn's context got.
 */
export function spreadAcrossConversations(
  ranked: readonly RankedTurn[],
  conversationOf: (id: number) => string | undefined,
  opts: { free: number; factor: number },
): RankedTurn[] {
  const left = [...ranked];
  const seen = new Map<string, number>();
  const out: RankedTurn[] = [];
  const rescored = (r: RankedTurn) => {
    const before = seen.get(conversationOf(r.id) ?? '') ?? 0;
    const spread = Math.pow(opts.factor, Math.max(0, before + 1 - opts.free));
    return { spread, score: recallScore({ ...r.score.terms, context: r.score.terms.context * spread }) };
  };
  while (left.length > 0) {
    let at = 0;
    let best = rescored(left[0] as RankedTurn);
    for (let i = 1; i < left.length; i++) {
      const next = rescored(left[i] as RankedTurn);
      if (next.score.relevance > best.score.relevance) [at, best] = [i, next];
    }
    const [r] = left.splice(at, 1) as [RankedTurn];
    const conversation = conversationOf(r.id) ?? '';
    seen.set(conversation, (seen.get(conversation) ?? 0) + 1);
    out.push({ ...r, score: best.score, signals: { ...r.signals, spread: best.spread } });
  }
  return out;
}

/**
 * A gathering question's facts are introduced once in each conversation and talked over after: "By the way, I went
 * to my first pottery class on Monday" opens a chat whose later turns ("the pottery class fees", "a class for my
 * niece") repeat the words.
 * Of each conversation's head turns whose writer states some of the question's words (statement share > 0), the
 * earliest (lowest turn number) introduces it: its ids (firstMention, issue 8 round 4b).
 */
export function firstStatements(
  head: readonly { id: number }[],
  facts: ReadonlyMap<number, { sessionId: string; turnNo: number }>,
  refined: ReadonlyMap<number, { statement: number | null }>,
): Set<number> {
  const first = new Map<string, { id: number; turnNo: number }>();
  for (const r of head) {
    const f = facts.get(r.id);
    if (!f || !((refined.get(r.id)?.statement ?? 0) > 0)) continue;
    const seen = first.get(f.sessionId);
    if (!seen || f.turnNo < seen.turnNo) first.set(f.sessionId, { id: r.id, turnNo: f.turnNo });
  }
  return new Set([...first.values()].map((x) => x.id));
}

/** The second stage's factors with each conversation's first statement × (1 + weight) (a new map; the rest kept). */
export function withFirstStatements<R extends { statement: number | null; factor: number; firstMention?: number }>(
  head: readonly { id: number }[],
  facts: ReadonlyMap<number, { sessionId: string; turnNo: number }>,
  refined: ReadonlyMap<number, R>,
  weight: number,
): Map<number, R> {
  const out = new Map(refined);
  for (const id of firstStatements(head, facts, refined)) {
    const r = out.get(id);
    if (r) out.set(id, { ...r, factor: r.factor * (1 + weight), firstMention: 1 + weight });
  }
  return out;
}
