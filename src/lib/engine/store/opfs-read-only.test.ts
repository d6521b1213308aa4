import { describe, expect, it } from 'vitest';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { memoryProjectFileStore } from '../files/project-file-store';
import { expectOk, T0 } from '../testing';
import { migrations } from './migrations';
import { loadSqlite3, openWasmDatabase } from './open-wasm';
import { openImage, refuseWrites, translateReadOnly } from './opfs-read-only';
import { createSqliteWasmDriver } from './sqlite-wasm-driver';
import { createSwitchableDriver } from './switchable-driver';

/**
 * Issue 13 defect 2: on a full disk the real database opens read-only — its data readable and
 * exportable, every write refused with QUOTA_EXCEEDED and guidance — and the engine switches to the
 * writable database once there is room, without a reload.
 */
async function engineWithData() {
  const clock = fixedClock(T0);
  const opened = await openWasmDatabase({ persistent: false, log: memoryLogger() });
  const env = { driver: opened.driver, clock, ids: sequentialIds('w'), log: memoryLogger(), storage: opened.storage, startedAt: T0, files: memoryProjectFileStore(clock) };
  const engine = createEngine(env, migrations);
  const session = expectOk(await engine.call('session.create', { title: 'kept' }));
  for (let i = 0; i < 5; i++) expectOk(await engine.call('message.append', { sessionId: session.id, role: 'user', content: `turn ${i} about the quartz ledger` }));
  expectOk(await engine.call('memory.create', { content: 'I like green tea' }));
  return { engine, opened, session, clock };
}

async function readOnlyEngine(image: Uint8Array) {
  const sqlite3 = await loadSqlite3();
  const db = openImage(sqlite3, image);
  const inner = createSqliteWasmDriver(db, { capi: sqlite3.capi, translateError: translateReadOnly });
  const driver = createSwitchableDriver(inner);
  const clock = fixedClock(T0 + 1000);
  const storage = { kind: 'opfs' as const, reason: 'storage-full', readOnly: true as boolean | undefined };
  const engine = createEngine({ driver, clock, ids: sequentialIds('r'), log: memoryLogger(), storage, startedAt: T0, files: memoryProjectFileStore(clock) }, migrations);
  refuseWrites(sqlite3, db);
  return { engine, driver, storage };
}

describe('the read-only start (storage full)', () => {
  it('reads and exports the real data, refuses every write with QUOTA_EXCEEDED and says why, and changes nothing', async () => {
    const source = await engineWithData();
    const sqlite3 = await loadSqlite3();
    const image = sqlite3.capi.sqlite3_js_db_export(source.opened.db);
    const { engine } = await readOnlyEngine(image);

    const status = expectOk(await engine.call('system.status', {}));
    expect(status).toMatchObject({ storage: 'opfs', storageReason: 'storage-full', readOnly: true });
    expect(expectOk(await engine.call('session.list', {})).total).toBe(1);
    expect(expectOk(await engine.call('message.list', { sessionId: source.session.id }))).toHaveLength(5);
    expect(expectOk(await engine.call('search.messages', { query: 'quartz' })).total).toBe(5);

    for (const [method, input] of [
      ['message.append', { sessionId: source.session.id, role: 'user', content: 'lost?' }],
      ['session.create', { title: 'new' }],
      ['memory.create', { content: 'a new fact' }],
      ['settings.update', { patch: { 'memory.rag_top_n': 3 } }],
    ] as const) {
      const res = await engine.call(method as 'session.create', input as never);
      expect(res, method).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED', details: { reason: 'read-only' } } });
      if (!res.ok) expect(res.error.message).toMatch(/read-only.*Free some space/s);
    }
    expect(expectOk(await engine.call('message.list', { sessionId: source.session.id }))).toHaveLength(5);

    // Export, the one thing a person must be able to do now, works.
    const started = expectOk(await engine.call('backup.exportBegin', { scope: { kind: 'all' } }));
    let text = '';
    for (;;) {
      const chunk = expectOk(await engine.call('backup.exportChunk', { exportId: started.exportId, maxChars: 1_000_000 }));
      text += chunk.text;
      if (chunk.done) break;
    }
    expect(text).toContain('quartz ledger');
    expect(expectOk(await engine.call('backup.exportDbFile', {})).bytes).toBeGreaterThan(0);
  });

  it('an empty image (first start on a full disk) gives an empty, read-only database — said so, never silently', async () => {
    const { engine } = await readOnlyEngine(new Uint8Array(0));
    expect(expectOk(await engine.call('system.status', {}))).toMatchObject({ readOnly: true, storageReason: 'storage-full' });
    expect(await engine.call('session.create', {})).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
  });

  it('once there is room, the engine switches to the writable database and saving resumes', async () => {
    const source = await engineWithData();
    const sqlite3 = await loadSqlite3();
    const { engine, driver, storage } = await readOnlyEngine(sqlite3.capi.sqlite3_js_db_export(source.opened.db));
    expect((await engine.call('session.create', {})).ok).toBe(false);

    driver.switchTo(source.opened.driver).close();
    Object.assign(storage, { reason: null });
    delete storage.readOnly;

    expect(expectOk(await engine.call('system.status', {}))).toMatchObject({ readOnly: false });
    expectOk(await engine.call('message.append', { sessionId: source.session.id, role: 'user', content: 'saved again' }));
    expect(expectOk(await source.engine.call('message.list', { sessionId: source.session.id }))).toHaveLength(6);
  });
});
