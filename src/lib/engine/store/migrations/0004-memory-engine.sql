-- Long-term memory engine (issue 4): what 0003 left to the engine that uses it.

-- Undo of the profile writes a new version with an older version's text; `restores` names that version
-- (0 = the empty profile before the first version), so a second undo steps further back instead of
-- undoing the undo.
ALTER TABLE user_profile ADD COLUMN restores INTEGER;

-- 000 agentic search filters by created_at; the memory manager lists by last change.
CREATE INDEX memories_created ON memories(created_at);
CREATE INDEX memories_status_updated ON memories(status, updated_at);
