-- Issue 17: episode.record asks "is this project at its episode cap?" (003 记忆上限自动回收,
-- lifecycle/reclaim.ts) on every write. A COUNT(*) over the project's episodes walked every one of them
-- (~0.9 ms natively at 5,000, growing with the project). The count is kept here instead, by triggers, so
-- every path that adds, removes or moves an episode (record, reclaim, the lifecycle passes, clearing, a
-- project's cascade, an import) keeps it exact in the same transaction. `project_key`: the project's id,
-- '' for episodes of no project.
CREATE TABLE episode_counts (
  project_key TEXT PRIMARY KEY,
  n           INTEGER NOT NULL CHECK (n >= 0)
) WITHOUT ROWID;

INSERT INTO episode_counts (project_key, n) SELECT COALESCE(project_id, ''), COUNT(*) FROM episodes GROUP BY COALESCE(project_id, '');

CREATE TRIGGER episode_counts_insert AFTER INSERT ON episodes BEGIN
  INSERT INTO episode_counts (project_key, n) VALUES (COALESCE(new.project_id, ''), 1)
    ON CONFLICT (project_key) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER episode_counts_delete AFTER DELETE ON episodes BEGIN
  UPDATE episode_counts SET n = n - 1 WHERE project_key = COALESCE(old.project_id, '');
END;

CREATE TRIGGER episode_counts_move AFTER UPDATE OF project_id ON episodes
WHEN COALESCE(old.project_id, '') <> COALESCE(new.project_id, '') BEGIN
  UPDATE episode_counts SET n = n - 1 WHERE project_key = COALESCE(old.project_id, '');
  INSERT INTO episode_counts (project_key, n) VALUES (COALESCE(new.project_id, ''), 1)
    ON CONFLICT (project_key) DO UPDATE SET n = n + 1;
END;
