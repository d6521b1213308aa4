/**
 * Seed 003 (Memory System), the forgetting half (issue 19): decay applied, compression, TTL/LRU/budgets,
 * the forgetting ledger, a failing clean-up — against the real engine on sqlite-wasm with a fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { decayScore } from '../../src/lib/domain/lifecycle/decay';
import { EPISODES_PER_PROJECT } from '../../src/lib/domain/lifecycle/budgets';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { chapter, episodeOn, FIGHTS, SHORT_TAKES, skillRun } from './learning-helpers';
import { bulkEpisodes, count, DAY, learnedRule } from './lifecycle-helpers';

describe('seed 003 forgetting: decay, compression, budgets', () => {
  it('003 情景记忆衰减到待压缩状态: a 60-day episode never recalled falls below 0.3 at the daily recompute, leaves recall, and the next batch compresses it to a summary', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    const { episode } = await episodeOn(t, { documentId: doc.id, passage: FIGHTS[0] as string, candidates: [SHORT_TAKES[0] as string, SHORT_TAKES[1] as string], selectedIndex: 0 });
    const query = { projectId: project.id, sceneType: 'action' as const, text: FIGHTS[0] as string };
    expect(expectOk(await t.engine.call('episode.query', query)).items.map((i) => i.episode.id)).toContain(episode.id);
    t.clock.advance(60 * DAY);
    const run = expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'] }));
    expect(run.state).toBe('done');
    const decayed = expectOk(await t.engine.call('episode.get', { id: episode.id }));
    // ARCHITECTURE §10: the formula is the seed's: e^−6 · (1 + 0.3 · importance), not the scenario's 0.25.
    expect(decayed.decay).toBeCloseTo(Math.exp(-6) * (1 + 0.3 * episode.importance), 6);
    expect(decayed.decay).toBeLessThan(0.3);
    expect(decayed.compressed).toBe(false);
    // Out of recall ("不再参与召回").
    expect(expectOk(await t.engine.call('episode.query', query)).items.map((i) => i.episode.id)).not.toContain(episode.id);
    const ledger = expectOk(await t.engine.call('lifecycle.ledger', {}));
    expect(ledger.items).toEqual([expect.objectContaining({ itemType: 'episode', itemId: episode.id, action: 'faded', reason: 'decay', text: 'action · continue · strong-positive', exists: true })]);
    // The next batch compresses it: scene, skill, feedback and style kept; candidates, input and kept text gone.
    const compress = expectOk(await t.engine.call('lifecycle.run', { phases: ['compress'] }));
    expect(compress.state === 'done' && compress.phases[0]?.compressed).toBe(1);
    const c = expectOk(await t.engine.call('episode.get', { id: episode.id }));
    expect(c).toMatchObject({ compressed: true, candidates: [], inputContext: '', finalText: null, sceneType: 'action', skillUsed: 'continue', implicit: episode.implicit });
    expect(c.summary).toContain('scene action · skill continue');
    expect(c.summary).toContain(`feedback ${episode.implicit}`);
    expect(c.summary).toContain('chose candidate 1 of 2');
    expect(c.summary).toMatch(/kept style: sentence \d/);
    expect(c.summary).not.toContain(SHORT_TAKES[0]);
    expect([...(c.summary ?? '')].length).toBeLessThanOrEqual(600);
    expect(expectOk(await t.engine.call('lifecycle.ledger', {})).items[0]).toMatchObject({ itemId: episode.id, action: 'compressed', reason: 'decay' });
  });

  it('003 被召回的记忆重新激活: an episode at 0.5 recalled by a continuation gets recallCount + 1, lastRecalledAt now, and its recomputed score is active again', async () => {
    const t = await createTestEngine();
    const { doc } = await chapter(t);
    const { episode } = await episodeOn(t, { documentId: doc.id, passage: FIGHTS[2] as string, candidates: [SHORT_TAKES[2] as string], selectedIndex: 0 });
    // The age at which 003's formula gives 0.5 for this episode.
    const days = 10 * Math.log(2 * (1 + 0.3 * episode.importance));
    t.clock.advance(Math.round(days * DAY));
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'] }));
    const before = expectOk(await t.engine.call('episode.get', { id: episode.id }));
    expect(before.decay).toBeCloseTo(0.5, 3);
    expect(before.recallCount).toBe(0);
    // A decaying episode is still recalled, at lower priority (its score weighs by 0.5).
    const run = await skillRun(t, { documentId: doc.id, passage: FIGHTS[2] as string });
    const recalled = expectOk(await t.engine.call('run.learning', { runId: run.runId })).episodes.find((e) => e.id === episode.id);
    expect(recalled?.kept).toBe(true);
    expect(recalled?.why.decay).toBeCloseTo(0.5, 2);
    const after = expectOk(await t.engine.call('episode.get', { id: episode.id }));
    expect(after).toMatchObject({ recallCount: 1, lastRecalledAt: t.clock.now() });
    expect(after.decay).toBeGreaterThanOrEqual(0.7);
    // The daily recompute agrees: active.
    t.clock.advance(DAY);
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'] }));
    const next = expectOk(await t.engine.call('episode.get', { id: episode.id }));
    expect(next.decay).toBeCloseTo(decayScore({ createdAt: next.createdAt, lastRecalledAt: next.lastRecalledAt, recallCount: 1, importance: next.importance }, t.clock.now()), 9);
    expect(next.decay).toBeGreaterThanOrEqual(0.7);
  });

  it('003 用户确认的记忆免于衰减: a confirmed rule skips the recompute and keeps its confidence, while an unconfirmed learned rule fades', async () => {
    const t = await createTestEngine();
    learnedRule(t, { id: 'r-first', rule: '严格第一人称叙述', confidence: 0.95 });
    learnedRule(t, { id: 'r-ornate', rule: '偏好华丽辞藻', confidence: 0.75 });
    expectOk(await t.engine.call('rules.confirm', { id: 'r-first' }));
    const confirmed = expectOk(await t.engine.call('rules.list', {})).find((r) => r.id === 'r-first');
    t.clock.advance(365 * DAY);
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'] }));
    const rows = new Map(t.driver.all<{ id: string; decay: number; confidence: number }>('SELECT id, decay, confidence FROM semantic_rules').map((r) => [r.id, r]));
    expect(rows.get('r-first')).toEqual({ id: 'r-first', decay: 1, confidence: confirmed?.confidence });
    expect(rows.get('r-ornate')?.decay).toBeLessThan(0.1);
    const ledger = expectOk(await t.engine.call('lifecycle.ledger', {})).items;
    expect(ledger.map((l) => l.itemId)).toEqual(['r-ornate']);
    expect(ledger[0]).toMatchObject({ itemType: 'rule', action: 'faded', text: '偏好华丽辞藻' });
    // Keep this: the faded rule is pinned back and exempt from then on.
    expectOk(await t.engine.call('lifecycle.keep', { itemType: 'rule', itemId: 'r-ornate' }));
    t.clock.advance(30 * DAY);
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'] }));
    expect(t.driver.get<{ decay: number }>("SELECT decay FROM semantic_rules WHERE id = 'r-ornate'")?.decay).toBe(1);
    expect(expectOk(await t.engine.call('lifecycle.ledger', {})).items[0]?.keptAt).toBe(t.clock.now() - 30 * DAY);
  });

  it('003 情景记忆超过上限触发 LRU+TTL 淘汰: at 10,000 a new episode first removes the expired (>180 days), then the least recently used; pinned ones stay', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    bulkEpisodes(t, { projectId: project.id, n: 3, prefix: 'old-', endAgoMs: 200 * DAY });
    bulkEpisodes(t, { projectId: project.id, n: EPISODES_PER_PROJECT - 3, prefix: 'e-' });
    expectOk(await t.engine.call('lifecycle.keep', { itemType: 'episode', itemId: 'old-1' }));
    // e-1 is the oldest of the rest, but was recalled yesterday: it is warm.
    t.driver.run("UPDATE episodes SET last_recalled_at = ?, recall_count = 1 WHERE id = 'e-1'", [t.clock.now() - DAY]);
    expect(count(t, 'project_id = ?', [project.id])).toBe(EPISODES_PER_PROJECT);
    const write = () => episodeOn(t, { documentId: doc.id, passage: FIGHTS[1] as string, candidates: [SHORT_TAKES[1] as string], selectedIndex: 0 });
    await write();
    await write();
    // The two expired, unpinned episodes went first.
    expect(t.driver.all<{ id: string }>("SELECT id FROM episodes WHERE id LIKE 'old-%'").map((r) => r.id)).toEqual(['old-1']);
    await write();
    // Then the least recently used: e-2 (e-1 was recalled; old-1 is pinned).
    expect(t.driver.all<{ id: string }>("SELECT id FROM episodes WHERE id IN ('old-1', 'e-1', 'e-2', 'e-3')").map((r) => r.id).sort()).toEqual(['e-1', 'e-3', 'old-1']);
    expect(count(t, 'project_id = ?', [project.id])).toBe(EPISODES_PER_PROJECT);
    const ledger = expectOk(await t.engine.call('lifecycle.ledger', { projectId: project.id })).items;
    expect(ledger.map((l) => [l.itemId, l.action, l.reason, l.exists])).toEqual([
      ['e-2', 'deleted', 'lru', false],
      ['old-3', 'deleted', 'ttl', false],
      ['old-2', 'deleted', 'ttl', false],
    ]);
    // A deleted memory cannot be kept.
    expect(await t.engine.call('lifecycle.keep', { itemType: 'episode', itemId: 'e-2' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', details: { field: 'itemId' } } });
  });

  it('003 记忆上限自动回收: a write at the cap reclaims room and succeeds, and a query running alongside answers', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    bulkEpisodes(t, { projectId: project.id, n: EPISODES_PER_PROJECT, prefix: 'e-' });
    const run = await skillRun(t, { documentId: doc.id, passage: FIGHTS[3] as string });
    const [written, queried] = await Promise.all([
      t.engine.call('episode.record', { runId: run.runId, candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 }),
      t.engine.call('episode.query', { projectId: project.id, sceneType: 'action', text: FIGHTS[3] as string }),
    ]);
    expect(expectOk(written).episode.projectId).toBe(project.id);
    expect(expectOk(queried).items.length).toBeGreaterThan(0);
    expect(count(t, 'project_id = ?', [project.id])).toBe(EPISODES_PER_PROJECT);
    expect(count(t, "id = 'e-1'")).toBe(0);
  });

  it('compression frees the bytes: a pass over faded episodes with big candidates, then VACUUM, shrinks the database file', async () => {
    const t = await createTestEngine();
    const { project } = await chapter(t);
    bulkEpisodes(t, { projectId: project.id, n: 400, prefix: 'big-', big: true });
    t.clock.advance(40 * DAY);
    const res = expectOk(await t.engine.call('lifecycle.run', { phases: ['decay', 'compress'], vacuum: true }));
    if (res.state !== 'done') throw new Error('skipped');
    expect(res.phases.map((p) => [p.phase, p.faded, p.compressed])).toEqual([
      ['decay', 400, 0],
      ['compress', 0, 400],
    ]);
    expect(res.vacuumed).toBe(true);
    // 400 × 3 candidates × ~2 KB dropped: at least a megabyte fewer.
    expect(res.bytesBefore - res.bytesAfter).toBeGreaterThan(1_000_000);
    expect(count(t, 'compressed = 1')).toBe(400);
  });
});
