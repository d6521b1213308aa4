/**
 * Seed 002 "数据迁移 · 从无状态到有状态": memory_init → memory_import --from-logs <dir> → memory_reindex.
 * An existing project's plain conversation logs become history Engram recalls (SC-LTM-004's question
 * about yesterday's CacheManager work finds them) and learns from in the background.
 */
import { describe, expect, it } from 'vitest';
import { fixtureFolder, importAll } from '../../src/lib/engine/imports/testing';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';

describe('002 数据迁移 memory_import --from-logs', () => {
  it('002 数据迁移 memory_import --from-logs: the logs become recallable conversations, then memories and summaries; reindex keeps them', async () => {
    const t = await createTestEngine({ now: Date.UTC(2026, 0, 17, 9, 0) });
    const { preview } = await importAll(t.engine, { source: 'logs', files: fixtureFolder('logs') });
    expect(preview.conversations.add).toBe(4);
    expect(preview.skippedFiles).toBe(1);

    const recalled = expectOk(await t.engine.call('recall.search', { query: '继续昨天的缓存实现 CacheManager', limit: 3 }));
    expect(recalled.results[0]?.content).toMatch(/CacheManager/);
    expect(recalled.results[0]?.createdAt).toBe(Date.UTC(2026, 0, 16, 9, 0, 30));

    let left = expectOk(await t.engine.call('import.followUp', { limit: 100 }));
    while (left.remaining.sessions > 0) left = expectOk(await t.engine.call('import.followUp', { limit: 100 }));
    const memories = expectOk(await t.engine.call('memory.list', {})).items;
    expect(memories.some((m) => m.category === 'preference' && m.content.includes('简洁'))).toBe(true);

    expectOk(await t.engine.call('maintenance.reindex', {}));
    expect(expectOk(await t.engine.call('search.messages', { query: 'PaymentHandler' })).total).toBe(1);
  });

  it('002 数据迁移 memory_import --from-logs run twice adds nothing the second time', async () => {
    const t = await createTestEngine();
    await importAll(t.engine, { source: 'logs', files: fixtureFolder('logs') });
    const again = await importAll(t.engine, { source: 'logs', files: fixtureFolder('logs') });
    expect(again.preview.conversations).toMatchObject({ add: 0, same: 4 });
    expect(again.result).toMatchObject({ conversations: 0, messages: 0 });
  });
});
