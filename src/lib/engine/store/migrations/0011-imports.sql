-- Imports from other apps (issue 14). An import writes in many short transactions (other calls run
-- between them), so these rows say what each import wrote: an import that is interrupted is taken back
-- whole, and a finished one's memory extraction and rolling summaries run afterwards in the background.

CREATE TABLE import_runs (
  id            TEXT PRIMARY KEY,
  source        TEXT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('running', 'done', 'rolled_back')),
  started_at    INTEGER NOT NULL,
  -- every step of a running import touches it: one untouched for long was abandoned
  updated_at    INTEGER NOT NULL,
  finished_at   INTEGER,
  conversations INTEGER NOT NULL DEFAULT 0,
  messages      INTEGER NOT NULL DEFAULT 0
);

-- One row per conversation an import created or added messages to.
CREATE TABLE import_items (
  run_id           TEXT NOT NULL REFERENCES import_runs(id) ON DELETE CASCADE,
  session_id       TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  created          INTEGER NOT NULL CHECK (created IN (0, 1)),
  -- where the conversation stood before (a take-back restores it)
  prior_turns      INTEGER NOT NULL,
  first_message_id INTEGER NOT NULL,
  -- the background follow-up's cursor: the next message to learn from
  next_message_id  INTEGER NOT NULL,
  followed_up      INTEGER NOT NULL DEFAULT 0 CHECK (followed_up IN (0, 1)),
  PRIMARY KEY (run_id, session_id)
) WITHOUT ROWID;
CREATE INDEX import_items_pending ON import_items(followed_up, run_id) WHERE followed_up = 0;
CREATE INDEX import_items_session ON import_items(session_id);
