import { describe, expect, it } from 'vitest';
import { fillEveryTable } from '../backup/test-fill';
import { REGISTRY } from '../backup/registry';
import { createBackupTestEngine } from '../backup/testing';
import { createTestEngine, expectOk } from '../testing';

describe('system.erase (issue 15: erase everything on this device)', () => {
  it('leaves every table empty but the migrations, the files gone and the file as small as a new one', async () => {
    const fresh = await createTestEngine();
    const freshBytes = expectOk(await fresh.engine.call('system.status', {})).dbBytes;
    const t = await createBackupTestEngine();
    await fillEveryTable(t);
    const p = expectOk(await t.engine.call('project.create', { name: 'Novel' }));
    expectOk(await t.engine.call('projectFile.write', { projectId: p.id, path: '.engram/characters/lena.md', content: 'Lena, the navigator.' }));
    for (let i = 0; i < 200; i++) expectOk(await t.engine.call('memory.create', { content: `A memory to fill pages ${i} ${'x'.repeat(300)}` }));
    const before = expectOk(await t.engine.call('system.status', {})).dbBytes;

    expect(await t.engine.call('system.erase', { confirm: false } as never)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    const report = expectOk(await t.engine.call('system.erase', { confirm: true }));
    expect(report.rowsDeleted).toBeGreaterThan(200);
    expect(report.projectsRemoved).toBeGreaterThanOrEqual(1);
    expect(report.bytesBefore).toBe(before);
    expect(report.bytesAfter).toBeLessThan(before);
    // No bigger than the database of a first start: the schema and nothing else.
    expect(report.bytesAfter).toBeLessThanOrEqual(freshBytes);

    for (const { spec } of REGISTRY) expect(t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${spec.name}`)?.n, spec.name).toBe(0);
    for (const name of ['applied_ops', 'op_results', 'job_runs']) expect(t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${name}`)?.n, name).toBe(0);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM schema_version')?.n).toBeGreaterThan(0);
    expect(await t.files.list(p.id)).toEqual([]);
    // The search indexes hold nothing either: a search finds nothing, a new memory is found again.
    expect(expectOk(await t.engine.call('memory.list', { query: 'memory' })).total).toBe(0);
    const again = expectOk(await t.engine.call('memory.create', { content: 'I moved to Porto.' }));
    expect(expectOk(await t.engine.call('memory.list', { query: 'Porto' })).items.map((m) => m.id)).toEqual([again.id]);
  });
});
