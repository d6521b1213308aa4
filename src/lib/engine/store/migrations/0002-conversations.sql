-- Conversations (seed 000 session/conversation, seed 002 conversations/turns/summaries/symbol_index).

CREATE TABLE projects (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE sessions (
  id           TEXT PRIMARY KEY,
  project_id   TEXT REFERENCES projects(id) ON DELETE SET NULL,
  title        TEXT NOT NULL DEFAULT '',
  snippet      TEXT NOT NULL DEFAULT '',
  -- 000 session_summary: set after the first reply
  summarized_at INTEGER,
  is_collected INTEGER NOT NULL DEFAULT 0,
  created_at   INTEGER NOT NULL,
  last_active  INTEGER NOT NULL,
  turn_count   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_last_active ON sessions(last_active DESC);

-- One row per user or assistant message. A user message opens a turn; its reply shares turn_no.
CREATE TABLE messages (
  id           INTEGER PRIMARY KEY,
  session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn_no      INTEGER NOT NULL,
  role         TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content      TEXT NOT NULL,
  symbols      TEXT NOT NULL DEFAULT '[]',
  is_collected INTEGER NOT NULL DEFAULT 0,
  status       TEXT NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'stopped', 'failed')),
  created_at   INTEGER NOT NULL,
  meta         TEXT
);
CREATE INDEX messages_session_turn ON messages(session_id, turn_no, id);
CREATE INDEX messages_created ON messages(created_at);

-- Full-text index over segmented text (TECH-NOTES: CJK words joined by spaces). Contentless: the text
-- lives once, in messages; rowid = messages.id. `extra` holds lower-weighted expansions.
CREATE VIRTUAL TABLE messages_fts USING fts5(
  body, extra,
  tokenize = 'porter unicode61 remove_diacritics 2',
  content = '', contentless_delete = 1
);
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  DELETE FROM messages_fts WHERE rowid = old.id;
END;

-- Rolling summaries (002 REQ-LTM-002) and compact summaries (004 full → compact).
CREATE TABLE summaries (
  id            INTEGER PRIMARY KEY,
  session_id    TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  kind          TEXT NOT NULL DEFAULT 'rolling' CHECK (kind IN ('rolling', 'compact')),
  start_turn    INTEGER NOT NULL,
  end_turn      INTEGER NOT NULL,
  summary       TEXT NOT NULL,
  key_symbols   TEXT NOT NULL DEFAULT '[]',
  key_decisions TEXT NOT NULL DEFAULT '[]',
  method        TEXT NOT NULL DEFAULT 'extractive' CHECK (method IN ('model', 'extractive')),
  created_at    INTEGER NOT NULL,
  UNIQUE (session_id, kind, start_turn)
);
CREATE INDEX summaries_session ON summaries(session_id, end_turn);
CREATE VIRTUAL TABLE summaries_fts USING fts5(
  body,
  tokenize = 'porter unicode61 remove_diacritics 2',
  content = '', contentless_delete = 1
);
CREATE TRIGGER summaries_fts_delete AFTER DELETE ON summaries BEGIN
  DELETE FROM summaries_fts WHERE rowid = old.id;
END;

-- 002 REQ-LTM-003: symbol → turn inverted index.
CREATE TABLE symbol_index (
  symbol     TEXT NOT NULL COLLATE NOCASE,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn_id    INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  relevance  REAL NOT NULL CHECK (relevance BETWEEN 0 AND 1),
  context    TEXT,
  PRIMARY KEY (symbol, session_id, turn_id)
) WITHOUT ROWID;
CREATE INDEX symbol_index_relevance ON symbol_index(relevance DESC);
CREATE INDEX symbol_index_turn ON symbol_index(turn_id);
