import {
  bm25Similarity,
  diversify,
  recallScore,
  recencyScore,
  SUMMARY_FROM_TURN_FACTOR,
  SUMMARY_SYMBOL_RELEVANCE,
  symbolMatchScore,
} from '../../domain/recall/score';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { extractKeywords } from '../../domain/text/keywords';
import { querySymbols } from '../../domain/text/symbols';
import type { EngineEnv } from '../env';
import type { RecallHit, RecallResponse } from './types';

const FTS_CANDIDATES = 120;
const SUMMARY_CANDIDATES = 30;

interface TurnRow {
  id: number;
  session_id: string;
  turn_no: number;
  role: 'user' | 'assistant';
  content: string;
  created_at: number;
  title: string;
}

interface SummaryRow {
  id: number;
  session_id: string;
  start_turn: number;
  end_turn: number;
  summary: string;
  key_symbols: string;
  created_at: number;
  title: string;
}

type Hit = RecallHit & { block: string; cap?: number };

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

/**
 * Seed 002 memory_recall: query → symbols and keywords → candidates from the symbol index and the
 * full-text indexes of turns and summaries → 002's score → top K, where an older block of turns is
 * represented by its summary and its best turn (REQ-LTM-002). Works across all conversations
 * (SC-LTM-004); the current session's most recent turns are left out, as they are in the context in full.
 */
export function createRecallService({ driver, clock }: Pick<EngineEnv, 'driver' | 'clock'>) {
  function ftsRanks(table: 'messages_fts' | 'summaries_fts', match: string | null, limit: number): Map<number, number> {
    const ranks = new Map<number, number>();
    if (!match) return ranks;
    try {
      for (const r of driver.all<{ rowid: number; rank: number }>(`SELECT rowid, rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`, [match, limit]))
        ranks.set(r.rowid, r.rank);
    } catch {
      // A query FTS5 cannot parse yields no text candidates; symbols still work.
    }
    return ranks;
  }

  /** turn id → (lower-cased symbol → relevance) for the query's symbols. */
  function symbolMatches(symbols: readonly string[]): Map<number, Map<string, number>> {
    const hits = new Map<number, Map<string, number>>();
    if (!symbols.length) return hits;
    const rows = driver.all<{ turn_id: number; symbol: string; relevance: number }>(
      `SELECT turn_id, symbol, relevance FROM symbol_index WHERE symbol IN (${placeholders(symbols.length)}) ORDER BY relevance DESC LIMIT 500`,
      symbols,
    );
    for (const r of rows) {
      const m = hits.get(r.turn_id) ?? new Map<string, number>();
      const key = r.symbol.toLowerCase();
      m.set(key, Math.max(m.get(key) ?? 0, r.relevance));
      hits.set(r.turn_id, m);
    }
    return hits;
  }

  function summaryHit(r: SummaryRow, opts: { symbols: readonly string[]; rank: number | null; bestRank: number; now: number; floor?: number }): Hit {
    const keySymbols = new Map((JSON.parse(r.key_symbols) as string[]).map((s) => [s.toLowerCase(), SUMMARY_SYMBOL_RELEVANCE] as const));
    const score = recallScore({
      symbol: symbolMatchScore(opts.symbols, keySymbols),
      recency: recencyScore(r.created_at, opts.now),
      context: opts.rank === null ? 0 : bm25Similarity(opts.rank, opts.bestRank),
    });
    return {
      block: `summary:${r.id}`,
      cap: 1,
      conversationId: r.session_id,
      sessionTitle: r.title,
      turnId: null,
      turnNo: null,
      role: null,
      content: null,
      summary: r.summary,
      summaryId: r.id,
      turnRange: [r.start_turn, r.end_turn],
      relevance: Math.max(score.relevance, opts.floor ?? 0),
      createdAt: r.created_at,
      isSummary: true,
      explain: { ...score, matchedSymbols: opts.symbols.filter((s) => keySymbols.has(s.toLowerCase())), ftsRank: opts.rank },
    };
  }

  return {
    recall(input: { query: string; limit: number; currentSessionId?: string; recentTurns: number; blockSize: number; includeSummaries: boolean }): RecallResponse {
      const t0 = performance.now();
      const now = clock.now();
      const symbols = querySymbols(input.query);
      const keywords = extractKeywords(input.query);
      const match = buildMatchQuery([...keywords, ...symbols]);

      const bySymbol = symbolMatches(symbols);
      const turnRanks = ftsRanks('messages_fts', match, FTS_CANDIDATES);
      const summaryRanks = input.includeSummaries ? ftsRanks('summaries_fts', match, SUMMARY_CANDIDATES) : new Map<number, number>();
      const bestTurnRank = Math.min(0, ...turnRanks.values());
      const bestSummaryRank = Math.min(0, ...summaryRanks.values());

      const ids = [...new Set([...bySymbol.keys(), ...turnRanks.keys()])];
      const turns = ids.length
        ? driver.all<TurnRow>(
            `SELECT m.id, m.session_id, m.turn_no, m.role, m.content, m.created_at, s.title FROM messages m JOIN sessions s ON s.id = m.session_id
             WHERE m.id IN (${placeholders(ids.length)})`,
            ids,
          )
        : [];
      const sessionIds = [...new Set(turns.map((t) => t.session_id))];
      const blockSummaries = sessionIds.length && input.includeSummaries
        ? driver.all<SummaryRow>(
            `SELECT su.id, su.session_id, su.start_turn, su.end_turn, su.summary, su.key_symbols, su.created_at, s.title
             FROM summaries su JOIN sessions s ON s.id = su.session_id WHERE su.kind = 'rolling' AND su.session_id IN (${placeholders(sessionIds.length)})`,
            sessionIds,
          )
        : [];
      const summaryCovering = (sessionId: string, turnNo: number) =>
        blockSummaries.find((s) => s.session_id === sessionId && s.start_turn <= turnNo && turnNo <= s.end_turn);
      const excludeFrom = input.currentSessionId
        ? (driver.get<{ n: number }>('SELECT MAX(0, turn_count - ?) AS n FROM sessions WHERE id = ?', [input.recentTurns, input.currentSessionId])?.n ?? 0)
        : 0;

      const hits = new Map<string, Hit>();
      for (const r of turns) {
        if (r.session_id === input.currentSessionId && r.turn_no > excludeFrom) continue;
        const matched = bySymbol.get(r.id) ?? new Map<string, number>();
        const rank = turnRanks.get(r.id) ?? null;
        const score = recallScore({
          symbol: symbolMatchScore(symbols, matched),
          recency: recencyScore(r.created_at, now),
          context: rank === null ? 0 : bm25Similarity(rank, bestTurnRank),
        });
        const covering = summaryCovering(r.session_id, r.turn_no);
        // A summarised block is represented by its summary and one turn; a recent block by up to two turns.
        hits.set(`turn:${r.id}`, {
          block: covering ? `turns-of-summary:${covering.id}` : `${r.session_id}:${Math.floor((r.turn_no - 1) / input.blockSize)}`,
          cap: covering ? 1 : undefined,
          conversationId: r.session_id,
          sessionTitle: r.title,
          turnId: r.id,
          turnNo: r.turn_no,
          role: r.role,
          content: r.content,
          summary: null,
          summaryId: null,
          turnRange: null,
          relevance: score.relevance,
          createdAt: r.created_at,
          isSummary: false,
          explain: { ...score, matchedSymbols: symbols.filter((q) => matched.has(q.toLowerCase())), ftsRank: rank },
        });
        // An older turn brings its block's summary along (it stands for the rest of the block).
        if (covering) {
          const key = `summary:${covering.id}`;
          const floor = score.relevance * SUMMARY_FROM_TURN_FACTOR;
          const prior = hits.get(key);
          if (!prior || prior.relevance < floor)
            hits.set(key, summaryHit(covering, { symbols, rank: summaryRanks.get(covering.id) ?? null, bestRank: bestSummaryRank, now, floor }));
        }
      }
      const missing = [...summaryRanks.keys()].filter((id) => !hits.has(`summary:${id}`));
      if (missing.length) {
        const rows = driver.all<SummaryRow>(
          `SELECT su.id, su.session_id, su.start_turn, su.end_turn, su.summary, su.key_symbols, su.created_at, s.title
           FROM summaries su JOIN sessions s ON s.id = su.session_id WHERE su.id IN (${placeholders(missing.length)})`,
          missing,
        );
        for (const r of rows) hits.set(`summary:${r.id}`, summaryHit(r, { symbols, rank: summaryRanks.get(r.id) ?? null, bestRank: bestSummaryRank, now }));
      }

      const results = diversify([...hits.values()], input.limit).map(({ block: _block, cap: _cap, ...hit }) => hit);
      // 002 total_searched: the turns and summaries the search covered (from the sessions' turn counters —
      // counting 100,000 message rows on every recall would cost more than the search).
      const totalSearched =
        driver.get<{ n: number }>('SELECT (SELECT COALESCE(SUM(turn_count), 0) FROM sessions) + (SELECT COUNT(*) FROM summaries) AS n')?.n ?? 0;
      return { results, totalSearched, latencyMs: performance.now() - t0, query: { keywords, symbols } };
    },
  };
}

export type RecallService = ReturnType<typeof createRecallService>;
