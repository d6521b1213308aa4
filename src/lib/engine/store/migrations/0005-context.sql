-- Context engine (seed 004): runs for the inspector, feedback events, semantic rules (003), documents for
-- the Write page, generation traces (003 provenance) and a minimal knowledge-graph store (004, 05 doc).
-- Skills are code (engine/context/skills.ts), not rows.

-- Documents (chapters) of a project, edited on the Write page.
CREATE TABLE documents (
  id         TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  title      TEXT NOT NULL DEFAULT '',
  content    TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX documents_project ON documents(project_id, updated_at DESC);

-- One context build (a chat turn or a skill run). Nothing stays 'pending' for ever: a newer build in the
-- same session/document cancels it, and run.sweep times out those older than 10 minutes.
-- Deleting a conversation, document or project deletes its runs (the prompt text would outlive it).
CREATE TABLE context_runs (
  rid                INTEGER PRIMARY KEY,
  id                 TEXT NOT NULL UNIQUE,
  kind               TEXT NOT NULL CHECK (kind IN ('chat', 'skill')),
  skill_id           TEXT NOT NULL,
  session_id         TEXT REFERENCES sessions(id) ON DELETE CASCADE,
  message_id         INTEGER,
  project_id         TEXT REFERENCES projects(id) ON DELETE CASCADE,
  document_id        TEXT REFERENCES documents(id) ON DELETE CASCADE,
  stable_prefix_hash TEXT NOT NULL,
  status             TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'canceled', 'failed', 'timeout')),
  created_at         INTEGER NOT NULL,
  finished_at        INTEGER,
  layers             TEXT NOT NULL,            -- JSON: per layer id, tokens, budget, status, sources, cut, items, reason
  memory_ids         TEXT NOT NULL DEFAULT '[]',
  total_tokens       INTEGER NOT NULL,
  memory_degraded    INTEGER NOT NULL DEFAULT 0,
  input_chars        INTEGER,                  -- length of the selection (or message), for feedback features
  messages           TEXT                      -- the full prompt, kept for the 30 most recent runs only
);
CREATE INDEX context_runs_session ON context_runs(session_id, rid);
CREATE INDEX context_runs_document ON context_runs(document_id, rid);
CREATE INDEX context_runs_pending ON context_runs(status, created_at) WHERE status = 'pending';
CREATE INDEX context_runs_message ON context_runs(message_id) WHERE message_id IS NOT NULL;

-- 004 feedback: accept | reject | partial on a completed run; sample refs point at text, never copy it.
CREATE TABLE feedback_events (
  rid           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  run_id        TEXT NOT NULL REFERENCES context_runs(id) ON DELETE CASCADE,
  skill_id      TEXT NOT NULL,
  project_id    TEXT,
  action        TEXT NOT NULL CHECK (action IN ('accept', 'reject', 'partial')),
  sample_refs   TEXT NOT NULL DEFAULT '[]',
  edit_distance REAL CHECK (edit_distance IS NULL OR (edit_distance >= 0 AND edit_distance <= 1)),
  features      TEXT NOT NULL DEFAULT '{}',   -- numbers only (length ratio, sentence length, …), no text
  created_at    INTEGER NOT NULL
);
CREATE INDEX feedback_events_skill ON feedback_events(skill_id, project_id, rid);
CREATE INDEX feedback_events_run ON feedback_events(run_id);

-- 003 semantic memory: one rule per row. A deleted rule keeps its row (status 'deleted') so its key is
-- remembered and learning never re-creates it.
CREATE TABLE semantic_rules (
  rid            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  rule           TEXT NOT NULL,
  category       TEXT NOT NULL CHECK (category IN ('style', 'structure', 'character', 'pacing', 'vocabulary')),
  scope          TEXT NOT NULL CHECK (scope IN ('global', 'project')),
  project_id     TEXT REFERENCES projects(id) ON DELETE CASCADE,
  key            TEXT,
  confidence     REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  supporting     TEXT NOT NULL DEFAULT '[]',
  contradicting  TEXT NOT NULL DEFAULT '[]',
  user_confirmed INTEGER NOT NULL DEFAULT 0,
  user_modified  INTEGER NOT NULL DEFAULT 0,
  source         TEXT NOT NULL CHECK (source IN ('user', 'learned')),
  version        INTEGER NOT NULL DEFAULT 1,
  status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deleted')),
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  CHECK ((scope = 'project') = (project_id IS NOT NULL))
);
CREATE INDEX semantic_rules_scope ON semantic_rules(status, scope, project_id);
-- One active rule per key and scope; NULL project ids compare equal through COALESCE.
CREATE UNIQUE INDEX semantic_rules_active_key ON semantic_rules(scope, COALESCE(project_id, ''), key)
  WHERE status = 'active' AND key IS NOT NULL;

-- 003 provenance ("为什么这样写？"): the generation id is the run id.
CREATE TABLE generation_traces (
  run_id     TEXT PRIMARY KEY REFERENCES context_runs(id) ON DELETE CASCADE,
  refs       TEXT NOT NULL,                   -- JSON [{ type, id, layer, weight }]
  verdict    TEXT CHECK (verdict IS NULL OR verdict IN ('correct', 'incorrect')),
  verdict_at INTEGER
) WITHOUT ROWID;

-- Knowledge graph, minimal store behind KnowledgeGraphReader (docs/design/05-knowledge-graph.md).
CREATE TABLE kg_entities (
  id         TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  type       TEXT NOT NULL CHECK (type IN ('character', 'place', 'object', 'organization', 'event', 'concept')),
  name       TEXT NOT NULL,
  aliases    TEXT NOT NULL DEFAULT '[]',
  source_ref TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX kg_entities_project ON kg_entities(project_id, name);

CREATE TABLE kg_facts (
  id                 TEXT PRIMARY KEY,
  project_id         TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  subject_id         TEXT NOT NULL REFERENCES kg_entities(id) ON DELETE CASCADE,
  predicate          TEXT NOT NULL,
  object             TEXT NOT NULL,
  valid_from_chapter INTEGER,
  valid_from_scene   INTEGER,
  valid_to_chapter   INTEGER,
  valid_to_scene     INTEGER,
  evidence           TEXT NOT NULL DEFAULT '[]',
  recorded_at        INTEGER NOT NULL
);
CREATE INDEX kg_facts_subject ON kg_facts(project_id, subject_id, predicate);
