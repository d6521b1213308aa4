/** Fixtures for the seed-003 forgetting scenarios (issue 19): bulk episodes and learned rules written as rows. */
import type { TestEngine } from '../../src/lib/engine/testing';

export const DAY = 86_400_000;

/**
 * `n` episodes of a project as plain rows (a year of writing in one statement): created one minute apart,
 * ending `endAgoMs` before now; `big` gives each 3 candidates of ~2 KB, as a skill run leaves them.
 */
export function bulkEpisodes(t: TestEngine, opts: { projectId: string | null; n: number; prefix: string; endAgoMs?: number; big?: boolean }): void {
  const end = t.clock.now() - (opts.endAgoMs ?? 0);
  const candidate = opts.big ? '他一拳砸向对方的脸。对方侧身闪开，反手拔出短刀。'.repeat(40) : '短句。';
  t.driver.run(
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
     INSERT INTO episodes (id, kind, skill_id, project_id, scene_type, input_summary, candidates, selected_index, final_text, implicit, valence, importance, created_at, updated_at)
     SELECT ? || i, 'skill-run', 'continue', ?, 'action', ?, json_array(?, ?, ?), 0, ?, 'weak-positive', 0.4, 0.5, ? - (? - i) * 60000, ? - (? - i) * 60000 FROM seq`,
    [opts.n, opts.prefix, opts.projectId, candidate, candidate, candidate, candidate, candidate, end, opts.n, end, opts.n],
  );
}

/** A learned rule as distillation leaves it (unconfirmed), `updatedAt` now unless given. */
export function learnedRule(t: TestEngine, opts: { id: string; rule: string; confidence: number; projectId?: string; updatedAt?: number }): void {
  const at = opts.updatedAt ?? t.clock.now();
  t.driver.run(
    `INSERT INTO semantic_rules (id, rule, category, scope, project_id, key, confidence, source, created_at, updated_at)
     VALUES (?, ?, 'style', ?, ?, ?, ?, 'learned', ?, ?)`,
    [opts.id, opts.rule, opts.projectId ? 'project' : 'global', opts.projectId ?? null, `k.${opts.id}`, opts.confidence, at, at],
  );
}

export const count = (t: TestEngine, where = '1', params: (string | number | null)[] = []) =>
  t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM episodes WHERE ${where}`, params)?.n ?? 0;
