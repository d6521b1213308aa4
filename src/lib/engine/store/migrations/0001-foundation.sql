-- Foundation: engine bookkeeping. schema_version itself is created by the migration runner.

-- Small facts about this database: the segmenter version its FTS index was built with, and so on.
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Idempotency for writes: a write carrying an op id is applied once; a replay (a follower tab
-- re-sending after a leader hand-over, the outbox draining twice) returns the stored result.
CREATE TABLE applied_ops (
  op_id      TEXT PRIMARY KEY,
  method     TEXT NOT NULL,
  result     TEXT,
  applied_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX applied_ops_applied_at ON applied_ops(applied_at);

-- Background job results (maintenance, later distillation and compaction), shown in settings.
CREATE TABLE job_runs (
  id          INTEGER PRIMARY KEY,
  job         TEXT NOT NULL,
  trigger     TEXT NOT NULL CHECK (trigger IN ('idle', 'periodic', 'demand', 'startup')),
  status      TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  started_at  INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  result      TEXT NOT NULL
);
CREATE INDEX job_runs_job ON job_runs(job, started_at DESC);

-- Engine settings (memory.*, MEMORY_*), validated by one zod schema with defaults.
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
