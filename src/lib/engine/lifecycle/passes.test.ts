import { describe, expect, it } from 'vitest';
import { ACTIVE_EPISODES_PER_PROJECT } from '../../domain/lifecycle/budgets';
import { createTestEngine, expectOk } from '../testing';
import { createLedger } from './ledger';
import { COMPRESS_BATCH, compressPass } from './passes';

describe('lifecycle compress pass', () => {
  it('compresses a project beyond its newest 1,000 episodes one small batch per step, never all of it in one transaction', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    const extra = 23;
    // Fresh episodes (neither decayed nor past the TTL): only the budget makes them due.
    t.driver.run(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
       INSERT INTO episodes (id, kind, skill_id, project_id, scene_type, input_summary, candidates, selected_index, implicit, valence, importance, created_at, updated_at)
       SELECT 'e-' || i, 'skill-run', 'continue', ?, 'action', 'x', json_array('a'), 0, 'weak-positive', 0.4, 0.5, ? + i, ? + i FROM seq`,
      [ACTIVE_EPISODES_PER_PROJECT + extra, project.id, t.clock.now() - 10_000, t.clock.now() - 10_000],
    );
    const compressed = () => t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1')?.n ?? 0;
    const pass = compressPass({ driver: t.driver, clock: t.clock, ledger: createLedger(t.driver, t.clock) });
    const perStep: number[] = [];
    for (let more = true, before = 0; more; before = compressed()) {
      more = t.driver.transaction(() => pass.step());
      perStep.push(compressed() - before);
    }
    expect(compressed()).toBe(extra);
    expect(Math.max(...perStep)).toBe(COMPRESS_BATCH);
    expect(perStep.filter((n) => n > 0).length).toBe(Math.ceil(extra / COMPRESS_BATCH));
    // The oldest went; the newest 1,000 stay whole.
    expect(t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1 AND CAST(substr(id, 3) AS INTEGER) > ?", [extra])?.n).toBe(0);
  });
});
