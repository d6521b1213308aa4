-- Writing memory that learns (issue 17, seed 003): episodes, the rules' learning history and conflicts,
-- distillation runs, and what each skill run's context took from the writing memory.
-- Columns for the forgetting half (issue 19) are here already: importance, recall_count,
-- last_recalled_at, compressed and a place for the compressed summary; `features` (numbers only) is what
-- distillation reads and survives compression.

-- 003 "情景记忆": one row per episode. `kind`: a skill run (with candidates and the user's choice), a
-- session's archived preference signals (working memory), or a "judged wrong" provenance verdict.
CREATE TABLE episodes (
  rid              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  kind             TEXT NOT NULL CHECK (kind IN ('skill-run', 'session', 'verdict')),
  -- The run survives as long as the inspector keeps it; the episode outlives it.
  run_id           TEXT REFERENCES context_runs(id) ON DELETE SET NULL,
  skill_id         TEXT NOT NULL,
  project_id       TEXT REFERENCES projects(id) ON DELETE CASCADE,
  -- 003 chapterId: the chapter (document); kept as learning material if the chapter is deleted.
  document_id      TEXT REFERENCES documents(id) ON DELETE SET NULL,
  scene_type       TEXT NOT NULL CHECK (scene_type IN ('dialogue', 'action', 'description', 'introspection', 'exposition', 'narration')),
  scene_source     TEXT NOT NULL DEFAULT 'heuristic' CHECK (scene_source IN ('heuristic', 'model')),
  input_summary    TEXT NOT NULL DEFAULT '',
  candidates       TEXT NOT NULL DEFAULT '[]',   -- JSON strings; emptied by compression
  selected_index   INTEGER NOT NULL CHECK (selected_index >= -1),
  final_text       TEXT,
  explicit         TEXT,                         -- 003 explicit feedback: what the user wrote about it
  implicit         TEXT NOT NULL,                -- 003 implicit signal (domain/episodes/signals.ts), the final one
  first_signal     TEXT,                         -- the signal before an undo turned it into the delayed negative
  valence          REAL NOT NULL CHECK (valence >= -1 AND valence <= 1),
  edit_distance    REAL CHECK (edit_distance IS NULL OR (edit_distance >= 0 AND edit_distance <= 1)),
  features         TEXT NOT NULL DEFAULT '{}',   -- numbers only: style features of input, candidates, kept text
  negated          TEXT NOT NULL DEFAULT '[]',   -- patterns this episode now counts against (a deleted rule's support)
  uses             INTEGER NOT NULL DEFAULT 1,   -- a session episode: how many uses it stands for
  importance       REAL NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
  recall_count     INTEGER NOT NULL DEFAULT 0,
  last_recalled_at INTEGER,
  compressed       INTEGER NOT NULL DEFAULT 0,
  summary          TEXT,                         -- the ~200-token summary once compressed (issue 19)
  undone_at        INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE UNIQUE INDEX episodes_run ON episodes(run_id) WHERE run_id IS NOT NULL;
CREATE INDEX episodes_project_scene ON episodes(project_id, scene_type, rid);
CREATE INDEX episodes_document ON episodes(document_id) WHERE document_id IS NOT NULL;
CREATE INDEX episodes_created ON episodes(created_at);

-- Text similarity for episode recall: the input summary and the kept text, as words and CJK pairs.
CREATE VIRTUAL TABLE episodes_fts USING fts5(
  body, grams,
  tokenize = 'porter unicode61 remove_diacritics 2',
  content = '', contentless_delete = 1
);
CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
  DELETE FROM episodes_fts WHERE rowid = old.rid;
END;

-- Learned rules remember what they rest on (the patterns and poles distillation found), the penalty of
-- "判断有误" verdicts (kept through later distillation) and when a time drift last changed them.
ALTER TABLE semantic_rules ADD COLUMN basis TEXT NOT NULL DEFAULT '[]';
ALTER TABLE semantic_rules ADD COLUMN penalty REAL NOT NULL DEFAULT 0 CHECK (penalty >= 0 AND penalty <= 1);
ALTER TABLE semantic_rules ADD COLUMN drifted_at INTEGER;

-- 003 "查看学习历史": every change of a rule — by distillation, the user or a verdict — with the
-- episodes it came from. Stays after the rule is deleted (status 'deleted' keeps the row).
CREATE TABLE rule_history (
  id          INTEGER PRIMARY KEY,
  rule_id     TEXT NOT NULL,
  project_id  TEXT REFERENCES projects(id) ON DELETE CASCADE,
  action      TEXT NOT NULL CHECK (action IN ('created', 'updated', 'drift', 'confirmed', 'edited', 'deleted', 'promoted', 'conflict', 'resolved', 'verdict', 'added')),
  actor       TEXT NOT NULL CHECK (actor IN ('distill', 'user', 'system')),
  before      TEXT,                        -- JSON { rule, confidence, version }
  after       TEXT,
  episodes    TEXT NOT NULL DEFAULT '[]',  -- the episodes behind this change
  distill_id  TEXT,
  created_at  INTEGER NOT NULL
);
CREATE INDEX rule_history_rule ON rule_history(rule_id, id);
CREATE INDEX rule_history_project ON rule_history(project_id, id);

-- 003 "直接矛盾": two rules that cannot both hold; open until the user chooses.
CREATE TABLE rule_conflicts (
  id            TEXT PRIMARY KEY,
  project_id    TEXT REFERENCES projects(id) ON DELETE CASCADE,
  rule_a        TEXT NOT NULL,
  rule_b        TEXT NOT NULL,
  dimension     TEXT NOT NULL,
  confidence_a  REAL NOT NULL,             -- before both were lowered
  confidence_b  REAL NOT NULL,
  detected_at   INTEGER NOT NULL,
  resolved_at   INTEGER,
  kept_rule_id  TEXT
) WITHOUT ROWID;
CREATE INDEX rule_conflicts_open ON rule_conflicts(resolved_at, project_id);

-- One distillation at a time (a lease), what it read (episodes up to `watermark`) and how it ended.
CREATE TABLE distill_runs (
  rid         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  trigger     TEXT NOT NULL CHECK (trigger IN ('batch', 'idle', 'manual', 'conflict')),
  status      TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  watermark   INTEGER NOT NULL,            -- the last episode rid in its snapshot
  episodes    INTEGER NOT NULL DEFAULT 0,
  result      TEXT NOT NULL DEFAULT '{}',  -- counts only
  error_code  TEXT,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX distill_runs_status ON distill_runs(status, rid);

-- What a skill run's context took from the writing memory: the scene type of its passage, the intent the
-- user typed, the working memory (entries, importance, evictions) and the episodes recalled with why.
-- The working memory itself lives in the DB worker (003: not persisted); these rows are what it is
-- rebuilt from after a hand-over, and `archived` says its session's signals were archived (or dropped).
CREATE TABLE run_learning (
  run_id          TEXT PRIMARY KEY REFERENCES context_runs(id) ON DELETE CASCADE,
  document_id     TEXT,
  project_id      TEXT,
  skill_id        TEXT NOT NULL,
  scene_type      TEXT NOT NULL,
  input_summary   TEXT NOT NULL DEFAULT '',
  input_features  TEXT,                    -- numbers only
  intent          TEXT,                    -- the instruction the user typed (null: the skill's default)
  working_memory  TEXT,                    -- JSON view at build time (kinds, tokens, importance, short previews)
  episodes        TEXT NOT NULL DEFAULT '[]',
  archived        INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX run_learning_open ON run_learning(archived, document_id, created_at);

-- The 004 audit trail names the 003 signal of each event (an undo is a delayed negative, not a plain reject).
ALTER TABLE feedback_events ADD COLUMN signal TEXT;
