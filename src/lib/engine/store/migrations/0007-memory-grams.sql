-- Memory retrieval matches Chinese by overlapping character pairs as well as by words (issue 8,
-- docs/design/06-retrieval.md): memories_fts gains a `grams` column. FTS5 tables cannot add a column,
-- so the (derived, contentless) index is recreated; the trigger that deletes its rows names it by name
-- and keeps working.
DROP TABLE memories_fts;
CREATE VIRTUAL TABLE memories_fts USING fts5(
  body, key, grams,
  tokenize = 'porter unicode61 remove_diacritics 2',
  content = '', contentless_delete = 1
);

-- Forget which segmenter built the indexes: at the next start the engine rebuilds every full-text row
-- from the rows it indexes (store/fts-reindex.ts), with the same column functions (store/fts-columns.ts).
DELETE FROM meta WHERE key = 'segmenter_version';
