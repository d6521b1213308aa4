import { describe, expect, it } from 'vitest';
import { fixedClock, sequentialIds } from '../domain/clock';
import { memoryLogger } from '../domain/log';
import { createEngine } from './engine';
import { migrations } from './store/migrations';
import { currentVersion, migrate, type Migration } from './store/migrate';
import { openWasmDatabase } from './store/open-wasm';
import { createTestEngine, expectOk } from './testing';

describe('engine', () => {
  it('migrates a new database to the latest schema and reports its status', async () => {
    const { engine } = await createTestEngine();
    const status = expectOk(await engine.call('system.status', {}));
    expect(status.schemaVersion).toBe(migrations.length);
    expect(status.storage).toBe('memory');
    expect(status.sqliteVersion).toMatch(/^3\.\d+/);
  });

  it('returns INVALID_ARGUMENT naming the field, without echoing the value', async () => {
    const { engine } = await createTestEngine();
    const res = await engine.call('settings.update', { patch: { 'memory.rag_top_n': 'secret-value' as unknown as number } });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe('INVALID_ARGUMENT');
    expect(res.error.message).toContain('patch.memory.rag_top_n');
    expect(res.error.message).not.toContain('secret-value');
  });

  it('rejects unknown fields and unknown methods', async () => {
    const { engine } = await createTestEngine();
    const unknownField = await engine.handle({ method: 'settings.update', input: { patch: {}, extra: 1 } });
    expect(unknownField).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(!unknownField.ok && unknownField.error.message).toContain('extra');
    const unknownMethod = await engine.handle({ method: 'nope.nothing', input: {} });
    expect(unknownMethod).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
  });

  it('applies a write with an op id once; another tab’s write (keepResult) replays its result, a tab’s own write replays as null', async () => {
    const { engine, driver } = await createTestEngine();
    const relayed = { method: 'settings.update', input: { patch: { 'memory.rag_top_n': 7 } }, opId: 'op-00000001', keepResult: true };
    const first = expectOk(await engine.handle(relayed)) as Record<string, unknown>;
    expect(first['memory.rag_top_n']).toBe(7);
    expectOk(await engine.call('settings.update', { patch: { 'memory.rag_top_n': 9 } }));
    // The re-send returns the stored result and does not write again.
    expect((expectOk(await engine.handle(relayed)) as Record<string, unknown>)['memory.rag_top_n']).toBe(7);
    expect(expectOk(await engine.call('settings.get', {}))['memory.rag_top_n']).toBe(9);

    // A tab's own write keeps no result (nobody can re-send it once its tab is gone), only its op id.
    expectOk(await engine.call('settings.update', { patch: { 'memory.rag_top_n': 4 } }, { opId: 'op-00000002' }));
    expect(await engine.call('settings.update', { patch: { 'memory.rag_top_n': 5 } }, { opId: 'op-00000002' })).toEqual({ ok: true, data: null });
    expect(expectOk(await engine.call('settings.get', {}))['memory.rag_top_n']).toBe(4);
    expect(driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM applied_ops')?.n).toBe(2);
    expect(driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM op_results')?.n).toBe(1);
  });

  it('announces writes to change listeners, not reads', async () => {
    const { engine } = await createTestEngine();
    const seen: string[] = [];
    engine.onChange((c) => seen.push(c.method));
    await engine.call('settings.get', {});
    await engine.call('settings.update', { patch: { 'memory.enable_user_profile': false } });
    expect(seen).toEqual(['settings.update']);
  });

  it('settings defaults come from the schema and a change applies to the next read', async () => {
    const { engine } = await createTestEngine();
    const before = expectOk(await engine.call('settings.get', {}));
    expect(before['memory.rag_top_n']).toBe(5);
    expect(before.MEMORY_RETRIEVAL_LIMIT).toBe(5);
    expect(before.MEMORY_EVICTION_THRESHOLD).toBeNull();
    const after = expectOk(await engine.call('settings.update', { patch: { 'memory.session_summary_limit': 1 } }));
    expect(after['memory.session_summary_limit']).toBe(1);
    expect(after['memory.rag_top_n']).toBe(5);
  });

  it('records job runs and lists them newest first', async () => {
    const { engine, clock } = await createTestEngine();
    for (const status of ['ok', 'failed'] as const) {
      clock.advance(1000);
      expectOk(
        await engine.call('jobs.record', {
          job: 'maintenance',
          trigger: 'demand',
          status,
          startedAt: clock.now(),
          finishedAt: clock.now() + 5,
          result: { integrity: status === 'ok' },
        }),
      );
    }
    const runs = expectOk(await engine.call('jobs.history', { job: 'maintenance' }));
    expect(runs.map((r) => r.status)).toEqual(['failed', 'ok']);
  });

  it('runs maintenance: optimize, FTS merge and an integrity check', async () => {
    const { engine } = await createTestEngine();
    expect(expectOk(await engine.call('maintenance.optimize', {})).task).toBe('optimize');
    expect(expectOk(await engine.call('maintenance.ftsMerge', {})).tables).toContain('messages_fts');
    expect(expectOk(await engine.call('maintenance.integrityCheck', {}))).toMatchObject({ ok: true, problems: [] });
  });
});

describe('migrations', () => {
  const log = memoryLogger();

  it('a failing migration leaves the database as it was and says which one failed', async () => {
    const { driver } = await openWasmDatabase({ persistent: false, log });
    const good: Migration = { version: 1, name: '0001-a', sql: 'CREATE TABLE a (x INTEGER);' };
    const bad: Migration = { version: 2, name: '0002-b', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);' };
    migrate(driver, [good], Date.now);
    expect(() => migrate(driver, [good, bad], Date.now)).toThrowError(/0002-b failed and was rolled back/);
    expect(currentVersion(driver)).toBe(1);
    expect(driver.get("SELECT 1 FROM sqlite_schema WHERE name = 'b'")).toBeUndefined();
  });

  it('refuses a database written by a newer schema', async () => {
    const { driver } = await openWasmDatabase({ persistent: false, log });
    migrate(driver, migrations, Date.now);
    driver.run('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)', [999, '0999-future', 0]);
    const clock = fixedClock(0);
    expect(() =>
      createEngine({ driver, clock, ids: sequentialIds(), log, storage: { kind: 'memory', reason: null }, startedAt: 0 }, migrations),
    ).toThrowError(/newer version of Engram/);
  });
});
