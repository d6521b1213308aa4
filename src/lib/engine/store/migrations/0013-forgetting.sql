-- Memory that forgets on purpose (issue 19, seed 003 记忆衰减与生命周期管理, 存储策略与淘汰机制执行细则):
-- each episode's and learned rule's stored decay score (domain/lifecycle/decay.ts, recomputed by the
-- lifecycle pass), the user's "keep this" pin (exempt from decay, never compressed, purged or evicted),
-- the forgetting ledger and when each lifecycle phase last ran.

ALTER TABLE episodes ADD COLUMN decay REAL NOT NULL DEFAULT 1 CHECK (decay >= 0 AND decay <= 1);
ALTER TABLE episodes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE semantic_rules ADD COLUMN decay REAL NOT NULL DEFAULT 1 CHECK (decay >= 0 AND decay <= 1);
ALTER TABLE semantic_rules ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
-- The lifecycle pass walks uncompressed and compressed episodes separately; the budgets count per project.
CREATE INDEX episodes_lifecycle ON episodes(compressed, project_id, decay);

-- "What Engram forgot": every episode or rule that faded, was compressed or was deleted by policy, with
-- when and why and a short text (never the full episode), until the ledger row itself is purged.
CREATE TABLE forgetting_ledger (
  id          INTEGER PRIMARY KEY,
  item_type   TEXT NOT NULL CHECK (item_type IN ('episode', 'rule')),
  item_id     TEXT NOT NULL,
  project_id  TEXT,
  action      TEXT NOT NULL CHECK (action IN ('faded', 'compressed', 'deleted')),
  reason      TEXT NOT NULL CHECK (reason IN ('decay', 'ttl', 'budget', 'lru')),
  decay       REAL,
  text        TEXT NOT NULL DEFAULT '',
  created_at  INTEGER NOT NULL,
  kept_at     INTEGER
);
CREATE INDEX forgetting_ledger_item ON forgetting_ledger(item_type, item_id);
CREATE INDEX forgetting_ledger_time ON forgetting_ledger(created_at);

-- When each phase (decay, compress, purge) last finished, and its last failure (MEMORY_CLEANUP_FAILED).
CREATE TABLE lifecycle_state (
  phase        TEXT PRIMARY KEY CHECK (phase IN ('decay', 'compress', 'purge')),
  last_ok_at   INTEGER,
  failed_at    INTEGER,
  error        TEXT
) WITHOUT ROWID;
