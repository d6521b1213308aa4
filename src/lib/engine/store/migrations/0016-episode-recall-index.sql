-- Issue 17: episode.query (003 情景记忆召回) within 2× of memory.retrieve at 10,000 episodes. Its ranking walks the
-- newest full-text matches and looks each one's episode up by rid to test its scope (project, compressed) and read
-- the columns scoring needs (store/episode-recall-query.ts). An episode's row is ~0.9 KB (passage, candidates,
-- features), so ~1,000 lookups per query touched ~1,000 table pages' worth of cells for ~60 bytes each; natively at
-- 10,000 episodes the lookups were ~0.5 of the statement's ~3.2 ms. This index holds exactly those columns, keyed by
-- rid, so the walk reads ~100 entries per page instead of ~8 rows; the table is read only for the 3–5 winners.
-- Its column list must stay what episode-recall-query.ts reads (its test checks the plan is covering).
CREATE INDEX episodes_recall ON episodes(rid, project_id, compressed, id, run_id, scene_type, importance, recall_count, last_recalled_at, pinned, created_at);
