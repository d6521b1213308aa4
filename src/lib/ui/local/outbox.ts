import type { IpcResponse } from '../../domain/errors';
import type { EngineCaller } from '../../engine/client/caller';
import type { Input, Method, Output } from '../../engine/protocol/contract';
import type { LocalDb, OutboxRow } from './local-db';

export type QueuedResponse<T> = IpcResponse<T> | { ok: false; queued: true; opId: string; error: { code: 'DB_UNAVAILABLE'; message: string } };

/**
 * Writes that must not be lost go through here: if no database is reachable the write is kept in the
 * outbox (IndexedDB) under its op id and drained later. Draining twice applies nothing twice.
 */
export function createOutbox(db: LocalDb, engine: EngineCaller, newOpId: () => string = () => crypto.randomUUID()) {
  let draining: Promise<{ applied: number; remaining: number }> | null = null;
  let last = 0;
  const nextSeq = () => (last = Math.max(last + 1, Date.now() * 1000));

  async function write<M extends Method>(method: M, input: Input<M>): Promise<QueuedResponse<Output<M>>> {
    const opId = newOpId();
    const res = await engine.call(method, input, { opId });
    if (res.ok || res.error.code !== 'DB_UNAVAILABLE') return res;
    await db.outbox.put({ opId, method, input, createdAt: Date.now(), seq: nextSeq(), attempts: 1, lastError: res.error.code });
    return { ok: false, queued: true, opId, error: { code: 'DB_UNAVAILABLE', message: res.error.message } };
  }

  async function drainOnce(): Promise<{ applied: number; remaining: number }> {
    let applied = 0;
    const rows: OutboxRow[] = await db.outbox.orderBy('seq').toArray();
    for (const row of rows) {
      const res = await engine.call(row.method, row.input as never, { opId: row.opId });
      if (!res.ok && res.error.code === 'DB_UNAVAILABLE') {
        await db.outbox.update(row.opId, { attempts: row.attempts + 1, lastError: res.error.code });
        break; // still no database: keep the order, try later
      }
      // Applied, replayed, or refused for good (invalid): either way it leaves the outbox.
      await db.outbox.delete(row.opId);
      if (res.ok) applied++;
    }
    return { applied, remaining: await db.outbox.count() };
  }

  return {
    write,
    drain(): Promise<{ applied: number; remaining: number }> {
      draining ??= drainOnce().finally(() => {
        draining = null;
      });
      return draining;
    },
    count: () => db.outbox.count(),
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
