import type { IpcError, IpcResponse } from '../../domain/errors';
import type { EngineCaller } from '../../engine/client/caller';
import type { Input, Method, Output } from '../../engine/protocol/contract';
import type { LocalDb, OutboxRow } from './local-db';

export type QueuedResponse<T> = IpcResponse<T> | { ok: false; queued: true; opId: string; error: { code: 'DB_UNAVAILABLE'; message: string } };

/** A write the engine refused while draining, waiting for the person to retry or discard it. */
export type RefusedWrite = OutboxRow & { refused: NonNullable<OutboxRow['refused']> };

export interface DrainReport {
  applied: number;
  /** Writes still waiting for a database. */
  remaining: number;
  /** Writes the engine refused (kept for the person to decide). */
  refused: number;
}

export type RetryOutcome = { kind: 'applied' } | { kind: 'queued' } | { kind: 'refused'; error: IpcError } | { kind: 'gone' };

/**
 * Writes that must not be lost go through here: if no database is reachable the write is kept in the
 * outbox (IndexedDB) under its op id and drained later. Draining twice applies nothing twice.
 *
 *   write ─▶ engine ─ DB_UNAVAILABLE ─▶ outbox ─ drain ─▶ applied (gone) | still no DB (kept, in order)
 *                                                    └─▶ refused (kept with its error) ─▶ retry | discard
 */
export function createOutbox(db: LocalDb, engine: EngineCaller, newOpId: () => string = () => crypto.randomUUID()) {
  let draining: Promise<DrainReport> | null = null;
  let last = 0;
  const nextSeq = () => (last = Math.max(last + 1, Date.now() * 1000));

  async function write<M extends Method>(method: M, input: Input<M>): Promise<QueuedResponse<Output<M>>> {
    const opId = newOpId();
    const res = await engine.call(method, input, { opId });
    if (res.ok || res.error.code !== 'DB_UNAVAILABLE') return res;
    await db.outbox.put({ opId, method, input, createdAt: Date.now(), seq: nextSeq(), attempts: 1, lastError: res.error.code });
    return { ok: false, queued: true, opId, error: { code: 'DB_UNAVAILABLE', message: res.error.message } };
  }

  /** Sends one kept write again (same op id: a write the engine already applied is not applied twice). */
  async function send(row: OutboxRow): Promise<RetryOutcome> {
    const res = await engine.call(row.method, row.input as never, { opId: row.opId });
    if (res.ok) {
      await db.outbox.delete(row.opId);
      return { kind: 'applied' };
    }
    // No database, or no room in it yet: the write waits (in order) rather than being refused.
    if (res.error.code === 'DB_UNAVAILABLE' || res.error.code === 'QUOTA_EXCEEDED') {
      await db.outbox.update(row.opId, { attempts: row.attempts + 1, lastError: res.error.code, refused: undefined });
      return { kind: 'queued' };
    }
    const { code, message, details } = res.error;
    await db.outbox.update(row.opId, {
      attempts: row.attempts + 1,
      lastError: code,
      refused: { code, message, ...(details ? { details } : {}), at: Date.now() },
    });
    return { kind: 'refused', error: res.error };
  }

  async function counts(): Promise<Pick<DrainReport, 'remaining' | 'refused'>> {
    const rows = await db.outbox.toArray();
    const refused = rows.filter((r) => r.refused).length;
    return { remaining: rows.length - refused, refused };
  }

  async function drainOnce(): Promise<DrainReport> {
    let applied = 0;
    const rows: OutboxRow[] = await db.outbox.orderBy('seq').toArray();
    for (const row of rows) {
      if (row.refused) continue; // waits for the person
      const outcome = await send(row);
      if (outcome.kind === 'queued') break; // still no database: keep the order, try later
      if (outcome.kind === 'applied') applied++;
    }
    return { applied, ...(await counts()) };
  }

  return {
    write,
    drain(): Promise<DrainReport> {
      draining ??= drainOnce().finally(() => {
        draining = null;
      });
      return draining;
    },
    /** Writes waiting for a database (refused ones aside). */
    count: async () => (await counts()).remaining,
    counts,
    /** The refused writes, oldest first, for the person to review. */
    async refused(): Promise<RefusedWrite[]> {
      return (await db.outbox.orderBy('seq').toArray()).filter((r): r is RefusedWrite => Boolean(r.refused));
    },
    async retry(opId: string): Promise<RetryOutcome> {
      const row = await db.outbox.get(opId);
      return row ? send(row) : { kind: 'gone' };
    },
    /** The person decided to drop it. */
    discard: (opId: string): Promise<void> => db.outbox.delete(opId),
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
