/**
 * The reads turn recall makes, as a port: the pipeline (pipeline.ts) is pure and asks for candidates through this
 * interface; `engine/recall/turn-index.ts` answers each with one SQL statement over SQLite (FTS5, the symbol index,
 * the messages and summaries tables). Every bound it takes (limits, windows) comes from RetrievalConfig.
 */
import type { TimeRange } from '../text/time-calendar';
import type { TurnFacts } from './rank-turns';

export interface TurnText {
  id: number;
  sessionId: string;
  turnNo: number;
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
  title: string;
}

export interface SummaryBlock {
  id: number;
  sessionId: string;
  startTurn: number;
  endTurn: number;
  createdAt: number;
}

/** One FTS5 query: its expression and the lowest rowid it ranks (> 0: a window of the newest matches). */
export interface LaneQuery {
  match: string;
  from: number;
}

export interface TurnSource {
  /** An upper bound of the number of turns (ids are never reused), O(1). */
  turnCountBound(): number;
  /** How many of the newest `cap` turns match, and the lowest rowid among them (cost bounded by cap). */
  newestMatches(match: string, cap: number): { count: number; lowest: number | null };
  /** The lowest rowid among the newest `budget` matches, or null when there are no more than `budget`. */
  windowStart(match: string, budget: number): number | null;
  /** bm25 of the best `limit` matches with rowid ≥ from (FTS5: negative, lower is better). */
  ranked(match: string, opts: { limit: number; from: number }): Map<number, number>;
  /** Session, role, time and question flag of each id, with the neighbours of `around` (two away for the first `farAround`). */
  facts(list: Iterable<number>, around: readonly number[], opts: { farAround: number; questionChars: number }): Map<number, TurnFacts>;
  /** The newest turns written inside a time range. */
  inRange(range: TimeRange, limit: number): number[];
  /** Turns containing `match` (newest first), with their text: where a name is used, and by whom. */
  mentions(match: string, limit: number): { sessionId: string; role: 'user' | 'assistant'; content: string }[];
  /** turn → (lower-cased symbol → relevance), the `limit` most relevant among the newest `window` turns naming one. */
  symbolHits(symbols: readonly string[], opts: { limit: number; window: number }): Map<number, Map<string, number>>;
  texts(list: Iterable<number>): Map<number, TurnText>;
  /** The rolling summary covering each (conversation, turn), if any. */
  summaryBlocks(turns: readonly { sessionId: string; turnNo: number }[]): SummaryBlock[];
  summaryTexts(list: Iterable<number>): Map<number, { summary: string; title: string }>;
  /** Turns of the current session that are still in the context in full (left out of recall). */
  recentFrom(sessionId: string, recentTurns: number): number;
  /** 002 total_searched. */
  totalSearched(): number;
  /**
   * Conversations as documents (session ranking): per conversation, the bm25 relevance (positive, higher is better)
   * of its user turns matching the lanes, summed, plus its summaries'; the best `limit`.
   */
  sessionDocuments(lanes: readonly LaneQuery[], limit: number): Map<string, number>;
  /** Title and last activity of conversations. */
  sessionInfo(ids: readonly string[]): Map<string, { title: string; lastActive: number }>;
}
