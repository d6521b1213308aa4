-- The symbol index (002 REQ-LTM-003) without a random page write per symbol (issue 3: store a turn p95 ≤ 3 ms,
-- ≤ 1 KB per turn). Keyed (symbol, turn) it put each of a turn's symbols on its own b-tree page (~4.5 pages per
-- stored turn) and needed a second index to delete by turn (~1 page more, ~90 B per turn).
--
--   symbol_index (turn_id, symbol) → relevance   a turn's entries are adjacent: appending a turn writes one page;
--                                                deleting a turn (cascade) walks its key prefix
--   messages_fts.symbols                         symbol → turns: the turn's symbols as tokens in its full-text row
--                                                (engine/store/symbol-tokens.ts), written in the same FTS5 segment
--                                                as its words — no page of its own. Text queries never search this
--                                                column, and bm25 gives it no weight.
--
-- The context column is gone: the words around a symbol are in the turn's text, and 002 wants an entry under 100 B.
CREATE TABLE symbol_index_by_turn (
  turn_id   INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  symbol    TEXT NOT NULL COLLATE NOCASE,
  relevance REAL NOT NULL CHECK (relevance BETWEEN 0 AND 1),
  PRIMARY KEY (turn_id, symbol)
) WITHOUT ROWID;
INSERT INTO symbol_index_by_turn (turn_id, symbol, relevance) SELECT turn_id, symbol, relevance FROM symbol_index;
DROP TABLE symbol_index;
ALTER TABLE symbol_index_by_turn RENAME TO symbol_index;

-- FTS5 tables cannot add a column: the (derived, contentless) index is recreated; the trigger that deletes its
-- rows names it by name and keeps working.
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5(
  body, extra, symbols,
  tokenize = 'porter unicode61 remove_diacritics 2',
  content = '', contentless_delete = 1
);

-- Rebuilt from the rows at the next start (store/fts-reindex.ts), with the same column functions (store/fts-columns.ts).
DELETE FROM meta WHERE key = 'segmenter_version';
