-- Issue 19 (seed 003 "全量清除需记录操作人和时间戳"): every clear of a project's memory or of all memory,
-- with when, what, how many rows of each kind went, and the local profile that asked for it. No foreign
-- key: the log outlives the project it names.
CREATE TABLE memory_clear_log (
  id           INTEGER PRIMARY KEY,
  at           INTEGER NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('project', 'all')),
  project_id   TEXT,
  project_name TEXT,
  counts       TEXT NOT NULL DEFAULT '{}',
  profile_id   TEXT NOT NULL,
  CHECK ((kind = 'project') = (project_id IS NOT NULL))
);
CREATE INDEX memory_clear_log_at ON memory_clear_log(at DESC);
