import { describe, expect, it } from 'vitest';
import { checkFileSize, MAX_BACKUP_BYTES, utf8Length, validateExport } from '../../domain/backup';
import { expectOk } from '../testing';
import { createExportService } from './export-service';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, drainExport, exportText, type BackupTestEngine } from './testing';

/** Export cursors' temp tables (the engine's own session_changes, store/session-changes.ts, is not one). */
const tempTables = (t: BackupTestEngine) => t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_temp_schema WHERE type = 'table' AND name != 'session_changes'")?.n ?? 0;

describe('chunked export', () => {
  it('streams pieces of bounded size with rising progress that join into one valid export', async () => {
    const t = await createBackupTestEngine();
    await fillEveryTable(t);
    for (let i = 0; i < 30; i++) expectOk(await t.engine.call('memory.create', { content: `记忆 ${i} ${'很长的内容'.repeat(70)}` }));
    const started = expectOk(await t.engine.call('backup.exportBegin', { scope: { kind: 'all' } }));
    expect(started.fileName).toBe('engram-backup-2026-01-17.json');
    expect(started.tables.memories).toBe(33);
    const pieces: string[] = [];
    let last = -1;
    for (;;) {
      const c = expectOk(await t.engine.call('backup.exportChunk', { exportId: started.exportId, maxChars: 16_384 }));
      expect(c.rowsDone + c.filesDone).toBeGreaterThanOrEqual(last);
      last = c.rowsDone + c.filesDone;
      pieces.push(c.text);
      if (c.done) {
        expect(c.rowsDone).toBe(started.totalRows);
        expect(c.filesDone).toBe(started.totalFiles);
        break;
      }
    }
    expect(pieces.length).toBeGreaterThan(3);
    const { file } = validateExport(JSON.parse(pieces.join('')));
    // A piece may overrun the limit by one row (or one project file) at most.
    const items: unknown[] = [...Object.values(file.tables).flat(), ...file.files];
    const largest = Math.max(...items.map((x) => JSON.stringify(x).length));
    for (const piece of pieces) expect(piece.length).toBeLessThan(16_384 + largest + 100);
    expect(file.tables.memories).toHaveLength(33);
    expect(file.files).toHaveLength(2);
    expect(tempTables(t)).toBe(0);
  });

  it('exports the rows that existed when it began, even while the conversation goes on', async () => {
    const t = await createBackupTestEngine();
    const filled = await fillEveryTable(t);
    for (let i = 0; i < 20; i++) {
      expectOk(await t.engine.call('message.append', { sessionId: filled.sessionIds[0] as string, role: 'user', content: `长消息 ${i} ${'内容'.repeat(1000)}` }));
    }
    const doomed = expectOk(await t.engine.call('session.create', { title: 'deleted during the export' }));
    expectOk(await t.engine.call('message.append', { sessionId: doomed.id, role: 'user', content: 'gone before it is read' }));
    const started = expectOk(await t.engine.call('backup.exportBegin', { scope: { kind: 'all' } }));
    const first = expectOk(await t.engine.call('backup.exportChunk', { exportId: started.exportId, maxChars: 16_384 }));
    expect(first.rowsDone).toBeLessThan(started.tables.projects + started.tables.sessions + started.tables.messages);
    const late = expectOk(await t.engine.call('session.create', { title: 'started during the export' }));
    expectOk(await t.engine.call('message.append', { sessionId: late.id, role: 'user', content: 'written during the export' }));
    expectOk(await t.engine.call('session.delete', { id: doomed.id }));
    const pieces: string[] = [first.text];
    for (let done = first.done; !done; ) {
      const c = expectOk(await t.engine.call('backup.exportChunk', { exportId: started.exportId }));
      pieces.push(c.text);
      done = c.done;
    }
    // Still one valid, self-consistent file: nothing added later, nothing that points nowhere.
    const { file } = validateExport(JSON.parse(pieces.join('')));
    expect(file.tables.sessions.some((s) => s.id === late.id)).toBe(false);
    expect(file.tables.messages.some((m) => m.session_id === late.id)).toBe(false);
    expect(file.tables.messages.some((m) => m.session_id === doomed.id)).toBe(false);
  });

  it('stops on cancel: the cursor and its captured rows are gone', async () => {
    const t = await createBackupTestEngine();
    await fillEveryTable(t);
    const started = expectOk(await t.engine.call('backup.exportBegin', { scope: { kind: 'all' } }));
    expect(tempTables(t)).toBeGreaterThan(0);
    expect(expectOk(await t.engine.call('backup.exportCancel', { exportId: started.exportId }))).toEqual({ canceled: true });
    expect(tempTables(t)).toBe(0);
    const after = await t.engine.call('backup.exportChunk', { exportId: started.exportId });
    expect(after).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it.each([
    [{ kind: 'project', id: 'nope' }, 'scope.id'],
    [{ kind: 'session', id: 'nope' }, 'scope.id'],
  ] as const)('answers NOT_FOUND for a scope that does not exist (%o)', async (scope, field) => {
    const t = await createBackupTestEngine();
    const res = await t.engine.call('backup.exportBegin', { scope });
    expect(res).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', details: { field } } });
  });

  it('exports one project with its conversations and files, and nothing of the others', async () => {
    const t = await createBackupTestEngine();
    const filled = await fillEveryTable(t);
    const { file } = validateExport(JSON.parse(await exportText(t.engine, { kind: 'project', id: filled.projectId })));
    expect(file.tables.projects.map((p) => p.id)).toEqual([filled.projectId]);
    expect(file.tables.sessions.map((s) => s.id)).toEqual([filled.sessionIds[1]]);
    expect(file.tables.memories.map((m) => m.project_id)).toEqual([filled.projectId]);
    expect(file.tables.user_profile).toEqual([]);
    expect(file.tables.settings).toEqual([]);
    expect(file.tables.kg_facts).toHaveLength(1);
    expect(file.files.map((f) => f.path).sort()).toEqual(['.engram/characters/林夜.md', '.engram/style/guide.md']);
  });

  it('refuses to write a backup it could not restore, naming the row', async () => {
    const t = await createBackupTestEngine();
    const m = expectOk(await t.engine.call('memory.create', { content: 'x', value: { ok: true } }));
    t.driver.run('UPDATE memories SET value = ? WHERE id = ?', ['{"constructor":{"prototype":1}}', m.id]);
    const started = expectOk(await t.engine.call('backup.exportBegin', { scope: { kind: 'all' } }));
    // Chunks are cut by time (short slices), so on a busy machine the bad row may come in a later chunk than the
    // first: read on until the export refuses or ends.
    let res = await t.engine.call('backup.exportChunk', { exportId: started.exportId });
    for (let i = 0; i < 1000 && res.ok && !res.data.done; i++) {
      res = await t.engine.call('backup.exportChunk', { exportId: started.exportId });
    }
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toContain(`\`memories\` (${m.id})`);
    expect(tempTables(t)).toBe(0);
  });
});

describe('an export that could not be imported back is refused (MAX_BACKUP_BYTES on both sides)', () => {
  async function serviceWith(t: BackupTestEngine, maxBytes: number) {
    return createExportService({ env: t.engine.env, files: t.files, maxBytes });
  }
  const drain = async (service: ReturnType<typeof createExportService>, exportId: string) => (await drainExport(service, exportId)).text;

  it('estimates the file closely, and refuses before writing a byte when the estimate is over the limit', async () => {
    const t = await createBackupTestEngine();
    await fillEveryTable(t);
    const started = expectOk(await t.engine.call('backup.exportBegin', { scope: { kind: 'all' } }));
    expectOk(await t.engine.call('backup.exportCancel', { exportId: started.exportId }));
    const actual = utf8Length(await exportText(t.engine));
    expect(started.estimatedBytes).toBeGreaterThan(actual * 0.8);
    expect(started.estimatedBytes).toBeLessThan(actual * 1.25);
    const small = await serviceWith(t, Math.floor(started.estimatedBytes / 2));
    await expect(small.begin({ kind: 'all' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fields: ['scope'], reason: 'too-large' } });
    expect(tempTables(t)).toBe(0);
  });

  it('stops at the limit itself when escapes make the file larger than estimated', async () => {
    const t = await createBackupTestEngine();
    const s = expectOk(await t.engine.call('session.create', {}));
    // Every quote, backslash and newline doubles in JSON: the estimate counts each once.
    for (let i = 0; i < 20; i++) expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: '"\\\n'.repeat(1000) }));
    const probe = await serviceWith(t, Number.MAX_SAFE_INTEGER);
    const { exportId, estimatedBytes } = await probe.begin({ kind: 'all' });
    const actual = utf8Length(await drain(probe, exportId));
    expect(actual).toBeGreaterThan(estimatedBytes);
    const tight = await serviceWith(t, Math.floor((estimatedBytes + actual) / 2));
    const started = await tight.begin({ kind: 'all' });
    await expect(drain(tight, started.exportId)).rejects.toMatchObject({ details: { reason: 'too-large' } });
    await expect(tight.chunk(started.exportId, 16_384)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('what it exports, it imports: an export at the limit passes the import\'s size check', async () => {
    expect(() => checkFileSize(MAX_BACKUP_BYTES)).not.toThrow();
    expect(() => checkFileSize(MAX_BACKUP_BYTES + 1)).toThrow();
  });
});
