/**
 * The forgetting ledger (issue 19 item 5): what faded, was compressed or was deleted by policy stays listed —
 * when, why, a short text — until the monthly purge removes the rows of long-deleted items. "Keep this" pins
 * an item back: exempt from decay, never compressed, purged or evicted again.
 */
import { EngineError } from '../../domain/errors';
import type { Clock } from '../../domain/clock';
import type { SqlDriver } from '../store/driver';
import type { LedgerAction, LedgerEntry, LedgerReason } from './types';

interface LedgerRow {
  id: number;
  item_type: 'episode' | 'rule';
  item_id: string;
  project_id: string | null;
  action: LedgerAction;
  reason: LedgerReason;
  decay: number | null;
  text: string;
  created_at: number;
  kept_at: number | null;
  item_exists: number;
}

const TEXT_MAX = 160;
export const shortText = (s: string) => ([...s].length > TEXT_MAX ? `${[...s].slice(0, TEXT_MAX - 1).join('')}…` : s);

/** An episode's ledger text: what kind of moment it was, never its words. */
export const episodeLabel = (e: { scene_type: string; skill_id: string; implicit: string }) => `${e.scene_type} · ${e.skill_id} · ${e.implicit}`;

export type LedgerNote = Pick<LedgerEntry, 'itemType' | 'itemId' | 'projectId' | 'action' | 'reason' | 'decay' | 'text'>;

export function createLedger(driver: SqlDriver, clock: Clock) {
  const EXISTS = `CASE l.item_type WHEN 'episode' THEN EXISTS (SELECT 1 FROM episodes e WHERE e.id = l.item_id)
    ELSE EXISTS (SELECT 1 FROM semantic_rules r WHERE r.id = l.item_id AND r.status = 'active') END`;
  return {
    note(n: LedgerNote): void {
      driver.run('INSERT INTO forgetting_ledger (item_type, item_id, project_id, action, reason, decay, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        n.itemType, n.itemId, n.projectId, n.action, n.reason, n.decay === null ? null : Math.round(n.decay * 10_000) / 10_000, shortText(n.text), clock.now(),
      ]);
    },
    list(opts: { projectId?: string | null; limit: number; offset: number }): { items: LedgerEntry[]; total: number } {
      const where = opts.projectId === undefined ? '1' : opts.projectId === null ? 'l.project_id IS NULL' : 'l.project_id = ?';
      const params = opts.projectId ? [opts.projectId] : [];
      const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM forgetting_ledger l WHERE ${where}`, params)?.n ?? 0;
      const items = driver
        .all<LedgerRow>(`SELECT l.*, ${EXISTS} AS item_exists FROM forgetting_ledger l WHERE ${where} ORDER BY l.id DESC LIMIT ? OFFSET ?`, [...params, opts.limit, opts.offset])
        .map((r) => ({
          id: r.id,
          itemType: r.item_type,
          itemId: r.item_id,
          projectId: r.project_id,
          action: r.action,
          reason: r.reason,
          decay: r.decay,
          text: r.text,
          createdAt: r.created_at,
          keptAt: r.kept_at,
          exists: r.item_exists === 1,
        }));
      return { items, total };
    },
    /** "Keep this": the item is pinned (exempt from decay) and its ledger rows say so. */
    keep(itemType: 'episode' | 'rule', itemId: string): { kept: boolean; decay: number } {
      const table = itemType === 'episode' ? 'episodes' : 'semantic_rules';
      const alive = itemType === 'episode' ? '' : " AND status = 'active'";
      const changed = driver.run(`UPDATE ${table} SET pinned = 1, decay = 1 WHERE id = ?${alive}`, [itemId]).changes;
      if (changed === 0) {
        throw new EngineError('NOT_FOUND', `That ${itemType} (\`itemId\`) no longer exists: a deleted memory cannot be kept.`, { field: 'itemId' });
      }
      driver.run('UPDATE forgetting_ledger SET kept_at = ? WHERE item_type = ? AND item_id = ? AND kept_at IS NULL', [clock.now(), itemType, itemId]);
      return { kept: true, decay: 1 };
    },
    /** The monthly purge: rows of items deleted long ago, and rows of items kept long ago. */
    prune(olderThan: number): number {
      return driver.run(
        `DELETE FROM forgetting_ledger WHERE created_at < ? AND (kept_at IS NOT NULL OR action = 'deleted')`,
        [olderThan],
      ).changes;
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
