import { describe, expect, it } from 'vitest';
import { expectOk } from '../testing';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, dumpDatabase, exportText, ftsDigest, importText } from './testing';

const total = (tables: Record<string, { add: number }>) => Object.values(tables).reduce((n, c) => n + c.add, 0);

describe('import: merge', () => {
  it('moves everything to a new device: the same dump, the same search index', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    await fillEveryTable(a);
    const text = await exportText(a.engine);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    await importText(b.engine, text, 'merge');
    expect(await dumpDatabase(b)).toEqual(await dumpDatabase(a));
    expect(ftsDigest(b.driver)).toEqual(ftsDigest(a.driver));
  });

  it('adds nothing the second time, and the preview says so first', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    await fillEveryTable(a);
    const text = await exportText(a.engine);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    const first = await importText(b.engine, text, 'merge');
    expect(total(first.result.tables)).toBeGreaterThan(40);
    const after = await dumpDatabase(b);
    const second = await importText(b.engine, text, 'merge');
    expect(total(second.preview.tables)).toBe(0);
    expect(total(second.result.tables)).toBe(0);
    expect(second.result.conflictsTotal).toBe(0);
    expect(second.files).toMatchObject({ add: 0, update: 0, conflict: 0 });
    expect(await dumpDatabase(b)).toEqual(after);
  });

  it('previews exactly what it then applies, and the preview alone changes nothing', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    await fillEveryTable(a);
    const text = await exportText(a.engine);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    await fillEveryTable(b, ' (B)');
    const before = await dumpDatabase(b);
    const preview = expectOk(await b.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'merge' }));
    expect(await dumpDatabase(b)).toEqual(before);
    const result = expectOk(await b.engine.call('backup.importApply', { token: preview.token, mode: 'merge' }));
    expect(result.tables).toEqual(preview.tables);
    expect(result.conflictsTotal).toBe(preview.conflictsTotal);
  });

  it('joins two devices: ids that collide get new ones, and the symbol index follows the messages', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    await fillEveryTable(a, ' from A');
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    await fillEveryTable(b, ' from B');
    const countB = (t: string) => b.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`)?.n ?? 0;
    const messagesBefore = countB('messages');
    const res = await importText(b.engine, await exportText(a.engine), 'merge');
    expect(countB('messages')).toBe(messagesBefore + res.preview.tables.messages.incoming);
    // Every symbol row points at a message that mentions it.
    const stray = b.driver.all(
      `SELECT s.symbol FROM symbol_index s JOIN messages m ON m.id = s.turn_id
       WHERE instr(lower(m.content), lower(s.symbol)) = 0`,
    );
    expect(stray).toEqual([]);
    const search = expectOk(await b.engine.call('search.messages', { query: 'PaymentHandler' }));
    expect(search.total).toBe(4);
    const memories = expectOk(await b.engine.call('memory.list', { limit: 50, status: 'all' }));
    expect(memories.items.filter((m) => m.content.includes('from A'))).toHaveLength(3);
    // The profiles of the two devices differ: the local one stays, whole.
    expect(res.result.tables.user_profile.add).toBe(0);
    expect(res.result.tables.user_profile.conflict).toBe(3);
    expect(expectOk(await b.engine.call('profile.get', {})).content).toContain('from B');
  });

  it('keeps a local change that is newer, takes a file change that is newer, and lists conflicts by id', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    const filled = await fillEveryTable(a);
    const text = await exportText(a.engine);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    await importText(b.engine, text, 'merge');
    const [m1, m2] = filled.memoryIds as [string, string];
    // An hour later both devices edit m1; A also edits m2, then exports again.
    b.clock.set(a.clock.now() + 3_600_000);
    a.clock.set(a.clock.now() + 3_600_000);
    expectOk(await b.engine.call('memory.update', { id: m1, content: '用户更喜欢 TypeScript' }));
    expectOk(await a.engine.call('memory.update', { id: m1, content: '用户喜欢用 Rust' }));
    expectOk(await a.engine.call('memory.update', { id: m2, content: 'The user lives in UTC+8 (Shanghai)' }));
    const res = await importText(b.engine, await exportText(a.engine), 'merge');
    // m2 is newer in the file: taken. m1 changed on both sides to the same version at the same time:
    // neither is newer, so B's stays and the preview names it.
    expect(res.result.tables.memories).toMatchObject({ update: 1, conflict: 1 });
    expect(res.result.conflicts).toContainEqual({ table: 'memories', key: m1 });
    expect(expectOk(await b.engine.call('memory.get', { id: m2 })).memory.content).toBe('The user lives in UTC+8 (Shanghai)');
    expect(expectOk(await b.engine.call('memory.get', { id: m1 })).memory.content).toBe('用户更喜欢 TypeScript');
    // The conflicting memory keeps its own history: A's version-2 entry is not added to it.
    expect(expectOk(await b.engine.call('memory.get', { id: m1 })).history.map((h) => h.version)).toEqual([2, 1]);
  });

  it('recognises the same memory under another id by its content, and does not copy its history', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    expectOk(await a.engine.call('memory.create', { content: '用户住在上海', key: 'fact.city', category: 'fact' }));
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    expectOk(await b.engine.call('memory.create', { content: '用户住在上海', key: 'fact.city', category: 'fact' }));
    const res = await importText(b.engine, await exportText(a.engine), 'merge');
    expect(res.result.tables.memories).toMatchObject({ add: 0, skip: 1 });
    expect(res.result.tables.memory_history).toMatchObject({ add: 0, skip: 1 });
    expect(b.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n).toBe(1);
  });
});

describe('import: replace', () => {
  it('replaces one project and leaves everything else as it was', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    const filled = await fillEveryTable(a);
    const projectFile = await exportText(a.engine, { kind: 'project', id: filled.projectId });
    const untouched = a.driver.all("SELECT * FROM sessions WHERE project_id IS NOT ? ORDER BY id", [filled.projectId]);
    expectOk(await a.engine.call('document.create', { projectId: filled.projectId, title: '多余的一章' }));
    expectOk(await a.engine.call('projectFile.write', { projectId: filled.projectId, path: '.engram/world/extra.md', content: 'x' }));
    const res = await importText(a.engine, projectFile, 'replace');
    expect(res.result.tables.documents).toMatchObject({ removed: 2, add: 1 });
    expect(res.files).toMatchObject({ removed: 1, skip: 2 });
    expect(expectOk(await a.engine.call('document.list', { projectId: filled.projectId })).map((d) => d.title)).toEqual(['第一章']);
    expect(a.driver.all("SELECT * FROM sessions WHERE project_id IS NOT ? ORDER BY id", [filled.projectId])).toEqual(untouched);
  });

  it('imports one conversation, with the project it belongs to, into an empty database', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    const filled = await fillEveryTable(a);
    const sessionId = filled.sessionIds[1] as string;
    const text = await exportText(a.engine, { kind: 'session', id: sessionId });
    const file = JSON.parse(text) as { tables: Record<string, { id?: string; session_id?: string }[]>; files: unknown[] };
    expect(file.tables.projects?.map((p) => p.id)).toEqual([filled.projectId]);
    expect(new Set(file.tables.messages?.map((m) => m.session_id))).toEqual(new Set([sessionId]));
    expect(file.files).toEqual([]);
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    await importText(b.engine, text, 'replace');
    expect(expectOk(await b.engine.call('message.list', { sessionId })).length).toBe(6);
  });
});
