-- Meaning-based recall (issue 18): the embedding of each turn and memory, per embedding model, quantised to int8.
--
--   embedding_models   one row per model name the user configured; its dimensions are learned from its first vector
--   embeddings         (kind, ref, model) → the unit vector × 127, rounded, one signed byte per dimension
--                      (384 dims → 384 B + the key: ≤ 0.6 KB per turn). kind 0 = a turn (messages.id),
--                      kind 1 = a memory (memories.rid). Filled in the background by the jobs worker; a row whose
--                      turn or memory is gone is removed with it (triggers below), so a vector never outlives its text.
--
-- A model change re-embeds: the old model's vectors are deleted when a new model starts to fill (embedding-store.ts).
CREATE TABLE embedding_models (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  dims       INTEGER NOT NULL CHECK (dims > 0 AND dims <= 8192),
  created_at INTEGER NOT NULL
);

CREATE TABLE embeddings (
  model_id INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
  kind     INTEGER NOT NULL CHECK (kind >= 0), -- 0 turn, 1 memory; further kinds (episodes, issue 17) need no migration
  ref_id   INTEGER NOT NULL,
  vector   BLOB NOT NULL,
  -- keyed by the row it embeds first: deleting a turn finds its vectors by prefix, and "not embedded yet" is a probe
  PRIMARY KEY (kind, ref_id, model_id)
) WITHOUT ROWID;

CREATE TRIGGER embeddings_message_delete AFTER DELETE ON messages BEGIN
  DELETE FROM embeddings WHERE kind = 0 AND ref_id = old.id;
END;

CREATE TRIGGER embeddings_memory_delete AFTER DELETE ON memories BEGIN
  DELETE FROM embeddings WHERE kind = 1 AND ref_id = old.rid;
END;

-- A memory whose text changed is embedded again.
CREATE TRIGGER embeddings_memory_update AFTER UPDATE OF content ON memories WHEN old.content IS NOT new.content BEGIN
  DELETE FROM embeddings WHERE kind = 1 AND ref_id = old.rid;
END;
