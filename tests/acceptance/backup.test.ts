/**
 * Issue 6 "backups that never lose a byte", against the real engine on sqlite-wasm (Node). The Chromium
 * round trip through the real file dialogs is a Playwright spec (tests/e2e).
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGRAM_EXPORT_VERSION, MAX_BACKUP_BYTES } from '../../src/lib/domain/backup';
import { DAY_MS } from '../../src/lib/domain/clock';
import { fillEveryTable } from '../../src/lib/engine/backup/test-fill';
import {
  createBackupTestEngine,
  dumpDatabase,
  exportText,
  ftsDigest,
  importText,
  wipe,
  type BackupTestEngine,
} from '../../src/lib/engine/backup/testing';
import { expectOk } from '../../src/lib/engine/testing';
import { MODEL_SETTINGS_KEY, saveModelSettings } from '../../src/lib/ui/app/model-settings.svelte';
import { LocalDb } from '../../src/lib/ui/local/local-db';

const v0Fixture = () => readFileSync(new URL('../fixtures/backup/export-v0.json', import.meta.url), 'utf8');

async function filledEngine(prefix = 't') {
  const t = await createBackupTestEngine({ idPrefix: prefix });
  const filled = await fillEveryTable(t);
  return { t, filled, text: await exportText(t.engine) };
}

describe('issue 6: round trip', () => {
  it('fill every table → export → wipe → import (replace) → the same canonical dump and search index', async () => {
    const { t, text } = await filledEngine();
    const before = await dumpDatabase(t);
    for (const [name, rows] of Object.entries(before.tables)) expect(rows.length, `${name} has rows to lose`).toBeGreaterThan(0);
    expect(before.files.length).toBeGreaterThan(0);
    const index = ftsDigest(t.driver);
    await wipe(t);
    expect((await dumpDatabase(t)).files).toEqual([]);
    const { preview } = await importText(t.engine, text, 'replace');
    expect(preview.conflictsTotal).toBe(0);
    expect(await dumpDatabase(t)).toEqual(before);
    expect(ftsDigest(t.driver)).toEqual(index);
  });

  it('imports an export of the previous format version (v0), migrating it', async () => {
    const t = await createBackupTestEngine();
    const { preview } = await importText(t.engine, v0Fixture(), 'merge');
    expect(preview.file).toMatchObject({ version: ENGRAM_EXPORT_VERSION, migratedFrom: 0 });
    expect(expectOk(await t.engine.call('memory.get', { id: 'm-legacy-1' })).history).toHaveLength(1);
    expect(expectOk(await t.engine.call('profile.get', {})).content).toBe('偏好简洁的中文回答。');
    expect(expectOk(await t.engine.call('settings.get', {}))['memory.rag_top_n']).toBe(8);
    expect(expectOk(await t.engine.call('search.messages', { query: 'Python' })).total).toBe(1);
  });

  it('imports a version-1 export (symbol entries with a context excerpt): the symbols are found again', async () => {
    const { text } = await filledEngine('a');
    const v1 = JSON.parse(text) as { version: number; tables: { symbol_index: Record<string, unknown>[]; messages: { id: number; content: string }[] } };
    expect(v1.tables.symbol_index.length).toBeGreaterThan(0);
    v1.version = 1;
    v1.tables.symbol_index = v1.tables.symbol_index.map((row) => ({ ...row, context: 'words around it' }));
    const t = await createBackupTestEngine({ idPrefix: 'b' });
    const { preview } = await importText(t.engine, JSON.stringify(v1), 'merge');
    expect(preview.file).toMatchObject({ version: ENGRAM_EXPORT_VERSION, migratedFrom: 1 });
    const symbol = v1.tables.symbol_index[0]?.symbol as string;
    const hits = expectOk(await t.engine.call('recall.search', { query: symbol, limit: 5 })).results;
    expect(hits.some((h) => h.explain.matchedSymbols.some((s) => s.toLowerCase() === symbol.toLowerCase()))).toBe(true);
  });
});

/** Changes the parsed export in place, or returns the new file (an object) or the raw text (a string). */
type Mutation = (file: Record<string, any>) => unknown;

const hostile: { name: string; mutate: Mutation | string; code: string; field: string }[] = [
  { name: 'malformed JSON', mutate: '{"format": "engram-export", "version": 1, "tables": {', code: 'INVALID_ARGUMENT', field: 'file' },
  { name: 'not an object', mutate: '[1, 2, 3]', code: 'INVALID_ARGUMENT', field: 'file' },
  { name: 'another format', mutate: (f) => ({ ...f, format: 'mem0' }), code: 'INVALID_ARGUMENT', field: 'format' },
  { name: 'a wrong type', mutate: (f) => void (f.tables.memories[0].confidence = 'high'), code: 'INVALID_ARGUMENT', field: 'tables.memories[0].confidence' },
  { name: 'an unknown column', mutate: (f) => void (f.tables.memories[0].apiKey = 'sk-1'), code: 'INVALID_ARGUMENT', field: 'tables.memories[0]' },
  {
    name: 'a huge string',
    mutate: (f) => void (f.tables.messages[0].content = '长'.repeat(300_000)),
    code: 'INVALID_ARGUMENT',
    field: 'tables.messages[0].content',
  },
  { name: 'a string beyond any column', mutate: (f) => void (f.tables.messages[0].content = 'x'.repeat(3_000_000)), code: 'INVALID_ARGUMENT', field: 'file' },
  {
    name: '10,000 levels of nesting',
    mutate: (f) => `${JSON.stringify(f).slice(0, -1)},"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    code: 'INVALID_ARGUMENT',
    field: 'file',
  },
  {
    name: 'a __proto__ key',
    mutate: (f) => JSON.stringify(f).replace('"tables":{', '"tables":{"__proto__":{"isAdmin":true},'),
    code: 'INVALID_ARGUMENT',
    field: 'file',
  },
  {
    name: 'a message whose conversation is missing',
    mutate: (f) => void (f.tables.sessions = f.tables.sessions.slice(1)),
    code: 'INVALID_ARGUMENT',
    field: 'tables.messages[0].session_id',
  },
  {
    name: 'a history entry of a missing memory',
    mutate: (f) => void (f.tables.memory_history[0].memory_id = 'ghost'),
    code: 'INVALID_ARGUMENT',
    field: 'tables.memory_history[0].memory_id',
  },
  {
    name: 'the same id twice with different content',
    mutate: (f) => void f.tables.memories.push({ ...f.tables.memories[0], content: 'something else' }),
    code: 'INVALID_ARGUMENT',
    field: 'tables.memories[3].id',
  },
  {
    name: 'a setting that does not exist',
    mutate: (f) => void f.tables.settings.push({ key: 'model.apiKey', value: 'sk-1', updated_at: 0 }),
    code: 'INVALID_ARGUMENT',
    field: 'tables.settings[3].key',
  },
  { name: 'a project file escaping its folder', mutate: (f) => void (f.files[0].path = '.engram/../../secrets.txt'), code: 'INVALID_ARGUMENT', field: 'files[0].path' },
  { name: 'a newer format version', mutate: (f) => ({ ...f, version: ENGRAM_EXPORT_VERSION + 1 }), code: 'UNSUPPORTED_VERSION', field: 'version' },
];

describe('issue 6: hostile files end in a clear error and an unchanged database', () => {
  it.each(hostile)('$name → $code naming `$field`', async ({ mutate, code, field }) => {
    const { t, text } = await filledEngine();
    const file = JSON.parse(text);
    const changed = typeof mutate === 'string' ? mutate : mutate(file);
    const body = typeof changed === 'string' ? changed : JSON.stringify(changed ?? file);
    const before = await dumpDatabase(t);
    const res = await t.engine.call('backup.importPreview', { file: new Blob([body]), mode: 'replace' });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe(code);
    expect((res.error.details?.fields as string[])[0]).toBe(field);
    expect(res.error.message).toMatch(/Nothing was imported\.$/);
    expect(res.error.message).not.toMatch(/林夜|Python|sk-1|secrets/);
    expect(await dumpDatabase(t)).toEqual(before);
  });

  it('refuses a file over the size limit before reading a byte of it, at once', async () => {
    const t = await createBackupTestEngine();
    let read = false;
    /** 600 MB that is never generated: reading it would be the bug. */
    class LazyHugeFile extends Blob {
      override get size() {
        return 600 * 1024 * 1024;
      }
      override text(): Promise<string> {
        read = true;
        return Promise.resolve('x'.repeat(10));
      }
      override slice(): Blob {
        read = true;
        return new Blob(['{']);
      }
      override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
        read = true;
        return new Blob(['{']).stream();
      }
    }
    const res = await t.engine.call('backup.importPreview', { file: new LazyHugeFile([]), mode: 'merge' });
    // Refused from its size alone: not one byte of it was read.
    expect(read).toBe(false);
    expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { fields: ['file'], maxBytes: MAX_BACKUP_BYTES } } });
    if (!res.ok) expect(res.error.message).toMatch(/600 MB; Engram imports files of up to 512 MB/);
  });

  it('a 200 MB hostile file is read piece by piece and refused at its first problem, the rest unread, other calls answered meanwhile', async () => {
    const { t } = await filledEngine();
    const before = await dumpDatabase(t);
    const head = `{"format":"engram-export","version":1,"exportedAt":"2026-01-17T10:30:00.000Z","app":{"name":"engram","version":"1","schemaVersion":8},"scope":{"kind":"all"},"tables":{"messages":[{"id":1,"content":"`;
    let pulled = 0;
    /** 200 MB: a row whose text never ends, generated as it is read. */
    class EndlessString extends Blob {
      override get size() {
        return 200 * 1024 * 1024;
      }
      /** The bytes at [start, end): the head, then '长' (3 bytes in UTF-8) without end — counted as read. */
      override slice(start = 0, end = this.size): Blob {
        const headBytes = new TextEncoder().encode(head);
        const char = new TextEncoder().encode('长');
        const to = Math.min(end, this.size);
        const bytes = new Uint8Array(Math.max(0, to - start));
        for (let i = 0; i < bytes.length; i++) {
          const at = start + i;
          bytes[i] = at < headBytes.length ? headBytes[at]! : char[(at - headBytes.length) % char.length]!;
        }
        pulled += bytes.length;
        return new Blob([bytes]);
      }
      override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
        const piece = new TextEncoder().encode('长'.repeat(65_536));
        let first = true;
        return new ReadableStream({
          pull(controller) {
            const bytes = first ? new TextEncoder().encode(head) : piece.slice();
            first = false;
            pulled += bytes.length;
            if (pulled > 200 * 1024 * 1024) controller.close();
            else controller.enqueue(bytes);
          },
        });
      }
    }
    const preview = t.engine.call('backup.importPreview', { file: new EndlessString([]), mode: 'replace' });
    const meanwhile = await t.engine.call('session.list', {});
    expect(meanwhile.ok).toBe(true);
    const res = await preview;
    expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { fields: ['file'] } } });
    if (!res.ok) expect(res.error.message).toMatch(/longer than 2000000 characters.*Nothing was imported\.$/);
    expect(pulled).toBeLessThan(10 * 1024 * 1024);
    expect(await dumpDatabase(t)).toEqual(before);
  });

  it('keeps the local row when the file has the same id with other content, and says so', async () => {
    const { t, filled, text } = await filledEngine();
    const file = JSON.parse(text);
    const memory = file.tables.memories.find((m: { id: string }) => m.id === filled.memoryIds[0]);
    memory.content = '被别人改过的内容';
    const local = expectOk(await t.engine.call('memory.get', { id: filled.memoryIds[0] as string })).memory;
    const { preview, result } = await importText(t.engine, JSON.stringify(file), 'merge');
    expect(preview.conflicts).toEqual([{ table: 'memories', key: filled.memoryIds[0] }]);
    expect(result.tables.memories).toMatchObject({ conflict: 1, update: 0, add: 0 });
    expect(expectOk(await t.engine.call('memory.get', { id: filled.memoryIds[0] as string })).memory).toEqual(local);
  });
});

describe('issue 6: nothing secret leaves with a backup', () => {
  it('exports no model key and no model settings, even when a key is set', async () => {
    const local = new LocalDb('backup-model-key-test');
    await saveModelSettings(
      { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5', apiKey: 'sk-live-do-not-export-42' },
      local,
    );
    const { t } = await filledEngine();
    // Even a key that found its way into the settings table stays behind.
    t.driver.run("INSERT INTO settings (key, value, updated_at) VALUES ('model.apiKey', '\"sk-live-do-not-export-42\"', 0)");
    const text = await exportText(t.engine);
    expect(text).not.toContain('sk-live-do-not-export-42');
    expect(text).not.toMatch(/apiKey|baseUrl|11434/);
    expect(text).not.toContain(MODEL_SETTINGS_KEY);
    local.close();
  });
});

/** Foreign keys hold, and every indexed row has exactly its full-text row. */
function expectConsistent(t: BackupTestEngine): void {
  expect(t.driver.all('PRAGMA foreign_key_check')).toEqual([]);
  const count = (sql: string) => t.driver.get<{ n: number }>(sql)?.n ?? 0;
  for (const table of ['messages', 'summaries', 'memories'])
    expect(count(`SELECT COUNT(*) AS n FROM ${table}_fts_docsize`), table).toBe(count(`SELECT COUNT(*) AS n FROM ${table}`));
  expect(count('SELECT COUNT(*) AS n FROM symbol_index s LEFT JOIN messages m ON m.id = s.turn_id WHERE m.id IS NULL')).toBe(0);
}

describe('issue 6: cleanup (002 REQ-LTM-007) keeps every table and index consistent', () => {
  it.each([
    ['older than 30 days', (f: { sessionIds: string[] }) => ({ olderThanDays: 30 }) as const],
    ['one conversation', (f: { sessionIds: string[] }) => ({ sessionId: f.sessionIds[0] as string })],
    ['everything (confirmed)', () => ({ all: true, confirm: true }) as const],
  ])('%s: 002 counts that match what went, and a database that exports cleanly', async (_, mode) => {
    const { t, filled } = await filledEngine();
    // Enough text in the conversation every mode removes that whole pages come free.
    for (let i = 0; i < 40; i++)
      expectOk(await t.engine.call('message.append', { sessionId: filled.sessionIds[0] as string, role: i % 2 ? 'assistant' : 'user', content: `第${i}段：${'长篇讨论 OrderService 的重构细节。'.repeat(120)}` }));
    t.clock.advance(45 * DAY_MS);
    const recent = expectOk(await t.engine.call('session.create', { title: 'recent' }));
    expectOk(await t.engine.call('message.append', { sessionId: recent.id, role: 'user', content: 'still here' }));
    const count = (table: string) => t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n ?? 0;
    const before = { sessions: count('sessions'), messages: count('messages'), summaries: count('summaries'), memories: count('memories') };
    const report = expectOk(await t.engine.call('cleanup.run', mode(filled)));
    expect(report.conversations_deleted).toBe(before.sessions - count('sessions'));
    expect(report.turns_deleted).toBe(before.messages - count('messages'));
    expect(report.summaries_deleted).toBe(before.summaries - count('summaries'));
    expect(report.conversations_deleted).toBeGreaterThan(0);
    // 002 `space_freed_kb`: the pages the deletion released (each mode here deletes ~160 KB of turns).
    expect(report.space_freed_kb).toBeGreaterThan(0);
    // What was learned stays (002 cleans conversations, not long-term memory).
    expect(count('memories')).toBe(before.memories);
    expectConsistent(t);
    const again = await createBackupTestEngine({ idPrefix: 'x' });
    await importText(again.engine, await exportText(t.engine), 'replace');
    expect(await dumpDatabase(again)).toEqual(await dumpDatabase(t));
  });
});
