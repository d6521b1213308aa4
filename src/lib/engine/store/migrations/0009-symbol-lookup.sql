-- The symbol index (002 REQ-LTM-003) without a random page write per symbol (issue 3: store a turn p95 ≤ 3 ms,
-- ≤ 1 KB per turn). Keyed (symbol, turn) it put each of a turn's symbols on its own b-tree page (~4.5 pages per
-- stored turn) and needed a second index to delete by turn (~1 page more, ~90 B per turn).
--
--   symbol_index (turn_id, symbol) → relevance   a turn's entries are adjacent: appending a turn writes one page;
--                                                deleting a turn (cascade) walks its key prefix
--   symbols_fts                                  symbol → turns, an FTS5 index (one new segment per commit,
--                                                merged in the background): the lookup recall uses
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

-- One row per turn (rowid = messages.id): its symbols as tokens (engine/store/symbol-tokens.ts). Positions and
-- column sizes are not needed to find a token, so the index keeps neither.
CREATE VIRTUAL TABLE symbols_fts USING fts5(
  symbols,
  tokenize = "unicode61 remove_diacritics 0 tokenchars '_'",
  content = '', contentless_delete = 1, detail = none
);
CREATE TRIGGER symbols_fts_delete AFTER DELETE ON messages BEGIN
  DELETE FROM symbols_fts WHERE rowid = old.id;
END;

-- symbols_fts is filled from symbol_index by the re-index at the next start (store/fts-reindex.ts).
DELETE FROM meta WHERE key = 'segmenter_version';
