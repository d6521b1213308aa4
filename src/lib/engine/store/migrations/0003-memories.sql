-- Long-term memory (seed 000 atomic memory + seed 001 long-term memory), its history, the user profile.

CREATE TABLE memories (
  -- an explicit integer key: VACUUM may renumber implicit rowids, and the FTS index points at this
  rid           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  scope         TEXT NOT NULL DEFAULT 'global' CHECK (scope IN ('global', 'project')),
  project_id    TEXT REFERENCES projects(id) ON DELETE CASCADE,
  -- where it came from; not a foreign key: deleting a conversation keeps what was learned from it
  session_id    TEXT,
  message_id    INTEGER,
  category      TEXT NOT NULL CHECK (category IN ('preference', 'fact', 'pattern')),
  key           TEXT NOT NULL,
  value         TEXT NOT NULL,               -- JSON
  content       TEXT NOT NULL,               -- the readable statement, in the user's language
  tags          TEXT NOT NULL DEFAULT '[]',  -- JSON array
  confidence    REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  source        TEXT NOT NULL CHECK (source IN ('user_stated', 'inferred', 'system')),
  importance    REAL NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
  status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded')),
  superseded_by TEXT,
  language      TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  last_accessed INTEGER,
  access_count  INTEGER NOT NULL DEFAULT 0,
  version       INTEGER NOT NULL DEFAULT 1,
  CHECK ((scope = 'project') = (project_id IS NOT NULL))
);
CREATE INDEX memories_status_category ON memories(status, category);
CREATE INDEX memories_key ON memories(key, status);
CREATE INDEX memories_eviction ON memories(confidence, last_accessed);

CREATE VIRTUAL TABLE memories_fts USING fts5(
  body, key,
  tokenize = 'porter unicode61 remove_diacritics 2',
  content = '', contentless_delete = 1
);
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
  DELETE FROM memories_fts WHERE rowid = old.rid;
END;

-- Every change of a memory, for undo and provenance. Removed with the memory (a delete is permanent).
CREATE TABLE memory_history (
  id         INTEGER PRIMARY KEY,
  memory_id  TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  version    INTEGER NOT NULL,
  action     TEXT NOT NULL CHECK (action IN ('create', 'update', 'supersede', 'restore')),
  actor      TEXT NOT NULL CHECK (actor IN ('user', 'extractor', 'system', 'import')),
  before     TEXT,
  after      TEXT,
  reason     TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX memory_history_memory ON memory_history(memory_id, version);

-- 000 user profile: one editable document; each version kept for undo.
CREATE TABLE user_profile (
  version    INTEGER PRIMARY KEY,
  content    TEXT NOT NULL,
  actor      TEXT NOT NULL CHECK (actor IN ('user', 'extractor', 'system', 'import')),
  reason     TEXT,
  created_at INTEGER NOT NULL
);
