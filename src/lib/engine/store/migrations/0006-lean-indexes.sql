-- Storage per turn (002 存储效率, issue 3: ≤ 1 KB per turn beyond its text), measured by npm run bench.

-- 002's DDL names an index on relevance, but no query looks symbols up by relevance (lookups go by
-- symbol, deletes by turn); it cost ~160 B per turn.
DROP INDEX IF EXISTS symbol_index_relevance;

-- Op results are kept only as long as a re-sent write can still arrive (a leader hand-over takes
-- seconds); older results are cleared and the op id alone keeps the write from applying twice. This
-- partial index lets that clearing visit only the rows that still hold a result.
CREATE INDEX applied_ops_with_result ON applied_ops(applied_at) WHERE result IS NOT NULL;

-- The symbol index keeps what a lookup needs: symbol → turn, with relevance and a short context. The
-- conversation is the turn's (messages.session_id), so storing it again in every entry — and in the
-- turn index — cost ~200 B per turn; the kind of a symbol is recomputed from its text when shown.
-- (002's DDL lists conversation_id; see docs/decisions.md.)
CREATE TABLE symbol_index_lean (
  symbol    TEXT NOT NULL COLLATE NOCASE,
  turn_id   INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  relevance REAL NOT NULL CHECK (relevance BETWEEN 0 AND 1),
  context   TEXT,
  PRIMARY KEY (symbol, turn_id)
) WITHOUT ROWID;
INSERT INTO symbol_index_lean (symbol, turn_id, relevance, context)
  SELECT symbol, turn_id, MAX(relevance), context FROM symbol_index GROUP BY symbol, turn_id;
DROP TABLE symbol_index;
ALTER TABLE symbol_index_lean RENAME TO symbol_index;
CREATE INDEX symbol_index_turn ON symbol_index(turn_id);
