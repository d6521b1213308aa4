/**
 * Full → compact for conversations (seed 004 "历史记录自动压缩"). Done inside context.build, before L4
 * is read, synchronously and extractively (no model needed, so it cannot stall a turn): once a
 * conversation's rolling summaries not yet covered by a compact summary pass COMPACT thresholds (entries
 * or tokens), all but the newest `compactKeepRecent` of them become one compact summary:
 *
 *   rolling  [1–5][6–10][11–15][16–20][21–25][26–30][31–35][36–40]
 *   compact  [1────────────────────────────────30]        [31–35][36–40] stay rolling
 *
 * The compact row lives in `summaries` (kind 'compact', start_turn..end_turn = the turns it covers), so
 * `summary.turns` still reaches the full turns; its text names the rolling summaries it replaced
 * (`full: summaries#a-b`). Rolling rows are kept: nothing is lost, L4 just stops using them.
 */
import { createCompactSummary, planCompaction } from '../../domain/context';
import type { Summary } from '../../domain/conversation/types';
import { extractKeywords } from '../../domain/text/keywords';
import { splitSentences } from '../../domain/text/sentences';
import { clipChars } from '../../domain/text/clip';
import type { TokenCounter } from '../../domain/text/tokens';
import type { EngineEnv } from '../env';
import type { SummaryRepo } from '../store/summary-repo';
import type { ContextTuning } from './tuning';

const clip = (s: string) => clipChars(s.trim(), 400);
const unique = (xs: readonly string[], max: number) => [...new Map(xs.filter((x) => x.trim()).map((x) => [x.toLowerCase(), clip(x)])).values()].slice(0, max);

export function createCompaction(deps: { env: Pick<EngineEnv, 'driver' | 'log'>; summaries: SummaryRepo; counter: TokenCounter; tuning: ContextTuning }) {
  const { summaries, tuning } = deps;
  return {
    /** Creates a compact summary when the conversation's history passed a threshold; null otherwise. */
    maybeCompact(sessionId: string): Summary | null {
      const all = summaries.list(sessionId);
      const coveredTo = Math.max(0, ...all.filter((s) => s.kind === 'compact').map((s) => s.endTurn));
      const rolling = all.filter((s) => s.kind === 'rolling' && s.startTurn > coveredTo);
      const plan = planCompaction({
        entries: rolling.map((s) => ({ id: s.id, seq: s.startTurn, tokens: deps.counter.count(s.summary) })),
        maxEntries: tuning.compactMaxEntries,
        maxTokens: tuning.compactMaxTokens,
        keepRecent: tuning.compactKeepRecent,
      });
      if (!plan) return null;
      const chosen = rolling.filter((s) => plan.ids.includes(s.id)).sort((a, b) => a.startTurn - b.startTurn);
      const first = chosen[0];
      const last = chosen[chosen.length - 1];
      if (!first || !last) return null;
      const text = chosen.map((s) => s.summary).join('\n');
      const compact = createCompactSummary({
        range: { from: first.startTurn, to: last.endTurn },
        topics: unique(extractKeywords(text, { max: 8 }), 8),
        decisions: unique(chosen.flatMap((s) => s.keyDecisions), 8),
        openQuestions: unique(splitSentences(text).filter((s) => /[?？]$/.test(s)), 5),
        entities: unique(chosen.flatMap((s) => s.keySymbols), 10),
        fullRef: { table: 'summaries', ids: plan.ids },
      });
      const stored = deps.env.driver.transaction(() =>
        summaries.upsert({
          sessionId,
          kind: 'compact',
          startTurn: compact.range.from,
          endTurn: compact.range.to,
          summary: compact.text,
          keySymbols: compact.entities,
          keyDecisions: compact.decisions,
          method: 'extractive',
        }),
      );
      deps.env.log.info('context.compacted', { summaries: chosen.length, fromTurn: compact.range.from, toTurn: compact.range.to });
      return stored;
    },
  };
}

export type Compaction = ReturnType<typeof createCompaction>;
