import type { TurnFacts } from '../../domain/recall/rank-turns';
import type { LaneQuery, SummaryBlock, TurnSource, TurnText } from '../../domain/recall/turn-source';
import type { TimeRange } from '../../domain/text/time-calendar';
import type { SqlDriver } from '../store/driver';
import { MESSAGE_BM25, messageTextMatch } from '../store/fts-columns';
import { symbolsMatch } from '../store/symbol-tokens';

/**
 * The reads turn recall makes, each one statement with a fixed SQL text (the driver caches prepared statements by
 * text, so id lists travel as one JSON parameter through json_each instead of a varying number of `?`).
 *
 * Latency at 100,000 turns (issue 3): `bm25()` as an ORDER BY expression, not the `rank` column — FTS5's rank
 * sorter ignores a rowid range and is ~2× slower; the rowid range (`from`) bounds how many rows are ranked.
 */
const ids = (list: Iterable<number>) => JSON.stringify([...list]);
export type { SummaryBlock, TurnText };

export function createTurnIndex(driver: SqlDriver): TurnSource {
  let counted: { key: string; n: number } | null = null;
  return {
    /** An upper bound of the number of turns (ids are never reused), O(1). */
    turnCountBound(): number {
      return driver.get<{ n: number }>('SELECT COALESCE(MAX(id), 0) AS n FROM messages')?.n ?? 0;
    },
    /**
     * How many of the newest `cap` turns match `match`, and the lowest rowid among them: the cost is bounded by cap
     * (FTS5 walks a term's rowids in descending order without reading the rest).
     */
    newestMatches(match: string, cap: number): { count: number; lowest: number | null } {
      try {
        const r = driver.get<{ n: number; lo: number | null }>(
          'SELECT count(*) AS n, min(rowid) AS lo FROM (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?)',
          [messageTextMatch(match), cap],
        );
        return { count: r?.n ?? 0, lowest: r?.lo ?? null };
      } catch {
        return { count: 0, lowest: null };
      }
    },
    /** The lowest rowid among the newest `budget` matches, or null when there are no more than `budget`. */
    windowStart(match: string, budget: number): number | null {
      try {
        return driver.get<{ rowid: number }>('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?', [messageTextMatch(match), budget])?.rowid ?? null;
      } catch {
        return null;
      }
    },
    /** bm25 of the best `limit` matches with rowid ≥ from (FTS5: negative, lower is better). */
    ranked(match: string, opts: { limit: number; from: number }): Map<number, number> {
      const out = new Map<number, number>();
      try {
        for (const r of driver.all<{ id: number; s: number }>(
          `SELECT rowid AS id, ${MESSAGE_BM25} AS s FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY s LIMIT ?`,
          [messageTextMatch(match), opts.from, opts.limit],
        ))
          out.set(r.id, r.s);
      } catch {
        // A query FTS5 cannot parse yields no text candidates; symbols and time still work.
      }
      return out;
    },
    /**
     * Session, role, time and question flag of each id, with its neighbours: the messages just before and after each
     * id of `around`, and two places away for its first `farAround` (the context window). Messages are appended in
     * order, so a conversation's neighbours are the adjacent ids; when two conversations were written at the same
     * moment (interleaved ids) a turn simply has no neighbour there. Plain primary-key lookups: correlated "previous
     * in session" subqueries cost 5× more at 100,000 turns.
     */
    facts(list: Iterable<number>, around: readonly number[], opts: { farAround: number; questionChars: number }): Map<number, TurnFacts> {
      const { farAround } = opts;
      const wanted = new Set<number>();
      for (const id of list) wanted.add(id);
      around.forEach((id, i) => {
        const reach = i < farAround ? 2 : 1;
        for (let x = id - reach; x <= id + reach; x++) if (x > 0) wanted.add(x);
      });
      // Only a turn whose reply can borrow from it needs its text read for the question flag.
      const rows = driver.all<{ id: number; session_id: string; turn_no: number; role: 'user' | 'assistant'; created_at: number; question: number | null }>(
        `SELECT m.id, m.session_id, m.turn_no, m.role, m.created_at,
           CASE WHEN m.id IN (SELECT value FROM json_each(?))
             THEN length(m.content) <= ? AND (instr(m.content, '?') > 0 OR instr(m.content, '？') > 0) END AS question
         FROM json_each(?) c JOIN messages m ON m.id = c.value`,
        [ids(around), opts.questionChars, ids(wanted)],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const out = new Map<number, TurnFacts>();
      for (const r of rows) {
        const prev = byId.get(r.id - 1);
        const next = byId.get(r.id + 1);
        out.set(r.id, {
          id: r.id,
          sessionId: r.session_id,
          turnNo: r.turn_no,
          role: r.role,
          createdAt: r.created_at,
          question: r.question === 1,
          prev: prev?.session_id === r.session_id ? prev.id : null,
          next: next?.session_id === r.session_id ? next.id : null,
        });
      }
      return out;
    },
    /** The newest turns written inside a time range (the time lane of a question that names a time). */
    inRange(range: TimeRange, limit: number): number[] {
      return driver
        .all<{ id: number }>('SELECT id FROM messages WHERE created_at >= ? AND created_at < ? ORDER BY created_at DESC LIMIT ?', [range.start, range.end, limit])
        .map((r) => r.id);
    },
    /** Turns containing `match` (newest first), with their text: where a name is used, and by whom. */
    mentions(match: string, limit: number): { sessionId: string; role: 'user' | 'assistant'; content: string }[] {
      try {
        return driver.all<{ sessionId: string; role: 'user' | 'assistant'; content: string }>(
          `SELECT m.session_id AS sessionId, m.role, m.content FROM messages m
           WHERE m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?)`,
          [messageTextMatch(match), limit],
        );
      } catch {
        return [];
      }
    },
    /**
     * turn → (lower-cased symbol → relevance) for the query's symbols: the newest turns that mention one (messages_fts.symbols,
     * at most `window` of them, so a symbol named in thousands of turns costs no more than a rare one), then
     * their symbol_index entries; the `limit` most relevant (newest first among equals).
     */
    symbolHits(symbols: readonly string[], opts: { limit: number; window: number }): Map<number, Map<string, number>> {
      const { limit } = opts;
      const hits = new Map<number, Map<string, number>>();
      const match = symbolsMatch(symbols);
      if (!match) return hits;
      let rows: { turn_id: number; symbol: string; relevance: number }[];
      try {
        rows = driver.all(
          `SELECT y.turn_id, y.symbol, y.relevance
           FROM (SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?) c
           JOIN symbol_index y ON y.turn_id = c.id AND y.symbol IN (SELECT value FROM json_each(?))
           ORDER BY y.relevance DESC, y.turn_id DESC LIMIT ?`,
          [match, opts.window, JSON.stringify(symbols), limit],
        );
      } catch {
        return hits;
      }
      for (const r of rows) {
        const m = hits.get(r.turn_id) ?? new Map<string, number>();
        const key = r.symbol.toLowerCase();
        m.set(key, Math.max(m.get(key) ?? 0, r.relevance));
        hits.set(r.turn_id, m);
      }
      return hits;
    },
    texts(list: Iterable<number>): Map<number, TurnText> {
      const rows = driver.all<TurnText>(
        `SELECT m.id, m.session_id AS sessionId, m.turn_no AS turnNo, m.role, m.content, m.created_at AS createdAt, s.title
         FROM json_each(?) c JOIN messages m ON m.id = c.value JOIN sessions s ON s.id = m.session_id`,
        [ids(list)],
      );
      return new Map(rows.map((r) => [r.id, r]));
    },
    /** The rolling summary covering each (conversation, turn), if any (it stands for its older block of turns). */
    summaryBlocks(turns: readonly { sessionId: string; turnNo: number }[]): SummaryBlock[] {
      return driver.all<SummaryBlock>(
        `SELECT DISTINCT su.id, su.session_id AS sessionId, su.start_turn AS startTurn, su.end_turn AS endTurn, su.created_at AS createdAt
         FROM json_each(?) c JOIN summaries su ON su.session_id = c.value ->> 0 AND su.end_turn >= c.value ->> 1
         WHERE su.start_turn <= c.value ->> 1 AND su.kind = 'rolling'`,
        [JSON.stringify(turns.map((t) => [t.sessionId, t.turnNo]))],
      );
    },
    summaryTexts(list: Iterable<number>): Map<number, { summary: string; title: string }> {
      const rows = driver.all<{ id: number; summary: string; title: string }>(
        'SELECT su.id, su.summary, s.title FROM json_each(?) c JOIN summaries su ON su.id = c.value JOIN sessions s ON s.id = su.session_id',
        [ids(list)],
      );
      return new Map(rows.map((r) => [r.id, r]));
    },
    /** Turns of the current session that are still in the context in full (left out of recall). */
    recentFrom(sessionId: string, recentTurns: number): number {
      return driver.get<{ n: number }>('SELECT MAX(0, turn_count - ?) AS n FROM sessions WHERE id = ?', [recentTurns, sessionId])?.n ?? 0;
    },
    /** 002 total_searched: the turns and summaries the search covered, from the sessions' turn counters
     *  (counting 100,000 message rows on every recall would cost more than the search). Even that sum reads every
     *  session (~0.13 ms at 100,000 turns), and it changes only with a write: it is kept until this connection
     *  changes a row (total_changes) or another one commits (data_version), as the DB host detects changes. */
    totalSearched(): number {
      const at = driver.get<{ t: number; d: number }>('SELECT total_changes() AS t, (SELECT data_version FROM pragma_data_version) AS d');
      const key = `${at?.t}:${at?.d}`;
      if (counted?.key !== key) {
        const n = driver.get<{ n: number }>('SELECT (SELECT COALESCE(SUM(turn_count), 0) FROM sessions) + (SELECT COUNT(*) FROM summaries) AS n')?.n ?? 0;
        counted = { key, n };
      }
      return counted.n;
    },
    sessionDocuments(lanes: readonly LaneQuery[], limit: number): Map<string, number> {
      const out = new Map<string, number>();
      const add = (rows: { s: string; r: number }[]) => {
        const per = new Map<string, number[]>();
        for (const row of rows) if (Number.isFinite(row.r) && row.r > 0) per.set(row.s, [...(per.get(row.s) ?? []), row.r]);
        for (const [k, v] of per) {
          out.set(k, (out.get(k) ?? 0) + v.reduce((a, b) => a + b, 0));
        }
      };
      for (const lane of lanes) {
        try {
          // A conversation's user turns: what the person said there is what they will ask about (bm25 summed).
          add(
            driver.all<{ s: string; r: number }>(
              `SELECT m.session_id AS s, -${MESSAGE_BM25} AS r FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
               WHERE messages_fts MATCH ? AND messages_fts.rowid >= ? AND m.role = 'user'`,
              [messageTextMatch(lane.match), lane.from],
            ),
          );
          // Its summaries: what it was about, as the summariser put it.
          add(
            driver.all<{ s: string; r: number }>(
              `SELECT su.session_id AS s, -bm25(summaries_fts) AS r FROM summaries_fts JOIN summaries su ON su.id = summaries_fts.rowid
               WHERE summaries_fts MATCH ?`,
              [lane.match],
            ),
          );
        } catch {
          // A query FTS5 cannot parse ranks no conversation by its document; the turn ranking still does.
        }
      }
      return new Map([...out].sort((a, b) => b[1] - a[1]).slice(0, limit));
    },
    sessionInfo(list: readonly string[]): Map<string, { title: string; lastActive: number }> {
      const rows = driver.all<{ id: string; title: string; lastActive: number }>(
        'SELECT s.id, s.title, s.last_active AS lastActive FROM json_each(?) c JOIN sessions s ON s.id = c.value',
        [JSON.stringify(list)],
      );
      return new Map(rows.map((r) => [r.id, { title: r.title, lastActive: r.lastActive }]));
    },
  };
}

export type TurnIndex = ReturnType<typeof createTurnIndex>;
