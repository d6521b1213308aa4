/**
 * 003 记忆上限自动回收 / 情景记忆超过上限触发 LRU+TTL 淘汰: before an episode is written, a project at its
 * 10,000-episode cap makes room — first the expired (older than 180 days, not pinned), then the least
 * recently used (lowest heat first; pinned ones never). Synchronous, inside the write's transaction, and
 * the write itself still succeeds. (The background pass keeps projects well below the cap; this is the guard.)
 */
import { EPISODES_PER_PROJECT, EPISODE_TTL_MS } from '../../domain/lifecycle/budgets';
import type { Clock } from '../../domain/clock';
import type { SqlDriver } from '../store/driver';
import { createLedger, episodeLabel } from './ledger';

export interface ReclaimReport {
  expired: number;
  evicted: number;
}

export function reclaimBeforeEpisodeWrite(driver: SqlDriver, clock: Clock, projectId: string | null, cap = EPISODES_PER_PROJECT): ReclaimReport {
  const scope = projectId === null ? 'project_id IS NULL' : 'project_id = ?';
  const params = projectId === null ? [] : [projectId];
  // The project's count as the triggers of episode_counts keep it (a COUNT(*) walked every episode of the project).
  const count = driver.get<{ n: number }>('SELECT n FROM episode_counts WHERE project_key = ?', [projectId ?? ''])?.n ?? 0;
  const report: ReclaimReport = { expired: 0, evicted: 0 };
  if (count < cap) return report;
  const ledger = createLedger(driver, clock);
  type Row = { rid: number; id: string; project_id: string | null; scene_type: string; skill_id: string; implicit: string };
  const remove = (rows: Row[], reason: 'ttl' | 'lru') => {
    for (const e of rows) {
      driver.run('DELETE FROM episodes WHERE rid = ?', [e.rid]);
      ledger.note({ itemType: 'episode', itemId: e.id, projectId: e.project_id, action: 'deleted', reason, decay: null, text: episodeLabel(e) });
    }
    return rows.length;
  };
  let excess = count - cap + 1;
  report.expired = remove(
    driver.all<Row>(`SELECT rid, id, project_id, scene_type, skill_id, implicit FROM episodes WHERE ${scope} AND pinned = 0 AND created_at < ? ORDER BY created_at, rid LIMIT ?`, [
      ...params,
      clock.now() - EPISODE_TTL_MS,
      excess,
    ]),
    'ttl',
  );
  excess -= report.expired;
  if (excess > 0) {
    report.evicted = remove(
      driver.all<Row>(
        `SELECT rid, id, project_id, scene_type, skill_id, implicit FROM episodes WHERE ${scope} AND pinned = 0
         ORDER BY COALESCE(last_recalled_at, created_at), recall_count, rid LIMIT ?`,
        [...params, excess],
      ),
      'lru',
    );
  }
  return report;
}
