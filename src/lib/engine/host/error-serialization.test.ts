import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../domain/log';
import { createCaller, type RawEndpoint } from '../client/caller';
import { openWasmDatabase } from '../store/open-wasm';
import { createTestEngine } from '../testing';

/** Like powersync's error_serialization test: what the engine answers survives the trip across a port. */
describe('errors across the worker port (Comlink over a MessageChannel)', () => {
  it('INVALID_ARGUMENT, NOT_FOUND and MEMORY_CLEAR_CONFIRM_REQUIRED arrive intact, with their details', async () => {
    const t = await createTestEngine();
    const { port1, port2 } = new MessageChannel();
    Comlink.expose({ call: (req: Parameters<typeof t.engine.handle>[0]) => t.engine.handle(req) }, port1);
    const remote = createCaller(Comlink.wrap<RawEndpoint>(port2));

    const invalid = await remote.call('message.append', { sessionId: 's', role: 'robot' as 'user', content: 'x' });
    expect(invalid).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('`role`'), details: expect.objectContaining({ fields: ['role'] }) },
    });
    const missing = await remote.call('session.get', { id: 'nope' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', details: { field: 'id' } } });
    const clear = await remote.call('cleanup.run', { all: true });
    expect(clear).toMatchObject({ ok: false, error: { code: 'MEMORY_CLEAR_CONFIRM_REQUIRED' } });
    port1.close();
    port2.close();
  });

  it('a broken transport becomes DB_UNAVAILABLE instead of an exception', async () => {
    const caller = createCaller({ call: () => Promise.reject(new Error('port closed')) });
    expect(await caller.call('system.status', {})).toMatchObject({ ok: false, error: { code: 'DB_UNAVAILABLE' } });
  });
});

describe('storage honesty', () => {
  it('without OPFS (here: Node) the database opens in memory and says why', async () => {
    const opened = await openWasmDatabase({ persistent: true, log: memoryLogger() });
    expect(opened.storage).toEqual({ kind: 'memory', reason: 'opfs-unavailable' });
    expect(opened.driver.get<{ v: number }>('SELECT 1 AS v')?.v).toBe(1);
  });
});
