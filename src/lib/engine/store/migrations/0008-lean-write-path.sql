-- Write latency and storage per turn (issue 3: store a turn p95 ≤ 3 ms, ≤ 1 KB per turn beyond its text).
-- Every page a write touches is written to the WAL and flushed at commit; on OPFS a commit of 22 pages took
-- ~3× as long as one of 6. The idempotency records touched ~5 pages per write (a rowid table, two indexes
-- and a result copy) and held ~800 B per turn.

-- Op ids alone: the primary key is the only index. Clients send time-ordered ids (engine/client/op-id.ts),
-- so a new id lands on the b-tree's last page. Pruned by age in the maintenance job.
CREATE TABLE applied_ops_lean (
  op_id      TEXT PRIMARY KEY,
  applied_at INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO applied_ops_lean (op_id, applied_at) SELECT op_id, applied_at FROM applied_ops;
DROP TABLE applied_ops;
ALTER TABLE applied_ops_lean RENAME TO applied_ops;

-- A write's result, kept only as long as a re-sent write can arrive (a leader hand-over takes seconds):
-- the newest few hundred, at most two minutes old. A rowid table with no index: appends go to its last
-- page, and the rare replay finds its op id by scanning a table this small.
CREATE TABLE op_results (
  rid        INTEGER PRIMARY KEY,
  op_id      TEXT NOT NULL,
  result     TEXT NOT NULL,
  applied_at INTEGER NOT NULL
);
