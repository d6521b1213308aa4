/**
 * The same engine on native SQLite (better-sqlite3, a file under bench/.cache): the same migrations, SQL and
 * handlers as the DB worker, reached through the same createCaller. It grows the corpus size by size, so at each
 * size it holds exactly the rows the browser holds, and it writes the prefill file the browser imports (see
 * bench/README.md, "How the large sizes are filled").
 */
import Database from 'better-sqlite3';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { randomId, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createCaller, type EngineCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import type { IpcResponse } from '../../src/lib/domain/errors';
import type { Input, Method, Output } from '../../src/lib/engine/protocol/contract';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { generateMemories, generateTurns, type CorpusQuery, type CorpusTurn } from '../lib/corpus';
import { createBulkWriter } from './bulk-fill';

/** sqlite-wasm's compiled-in page size (TECH-NOTES "sqlite-wasm"); better-sqlite3 defaults to 4096. */
export const WASM_PAGE_SIZE = 8192;

/** Turns per transaction in the bulk fill (fillTo). */
export const FILL_BATCH = 5000;
/** Turns per transaction in the bulk path (bulk-fill.ts): no engine calls, so a bigger batch costs little memory. */
export const BULK_BATCH = 25_000;

export interface OpenSession {
  /** The corpus session number … */
  no: number;
  /** … and the product's id for it. */
  id: string;
}

export interface NativeRun {
  /**
   * Appends turns up to `upTo` (exclusive) as fast as possible (journal in memory, no fsync: a bulk fill, not timed);
   * `progress` is told the turns stored after each batch (a million turns take tens of minutes).
   */
  fillTo(upTo: number, progress?: (stored: number) => void): Promise<void>;
  /** Appends turns up to `upTo`, timing each call, with the browser's durability (rollback journal, synchronous = FULL). */
  storeTimed(upTo: number): Promise<number[]>;
  recall(queries: readonly CorpusQuery[], limit: number): Promise<{ kind: string; ms: number }[]>;
  /** Writes the database as it is now to `path` (the browser's prefill). */
  snapshot(path: string): number;
  /** The session the next turn continues, if it has started. */
  openSession(): OpenSession | null;
  dbBytes(): Promise<number>;
  turns(): number;
  /** Sessions created so far. */
  sessions(): number;
  close(): void;
}

/**
 * `fill`: how fillTo writes the untimed turns. 'bulk' (the default): prepared statements straight into the
 * tables (bulk-fill.ts), ~4× faster — what makes the million-turn row possible; 'engine': every turn through
 * engine.handle, the reference bulk-fill.test.ts compares it with.
 */
export function openNative(opts: { path: string; seed: number; total: number; fill?: 'bulk' | 'engine' }): NativeRun {
  rmSync(opts.path, { force: true });
  rmSync(`${opts.path}-journal`, { force: true });
  const db = new Database(opts.path);
  db.pragma(`page_size = ${WASM_PAGE_SIZE}`);
  // The browser's pragmas (store/open-wasm.ts tune()); synchronous is switched per phase below.
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY;');
  const engine = createEngine(
    { driver: createBetterSqlite3Driver(db), clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'native benchmark' }, startedAt: Date.now() },
    loadMigrationsFromDisk(),
  );
  const caller: EngineCaller = createCaller({ call: (req) => engine.handle(req) });
  const must = async <M extends Method>(method: M, input: Input<M>): Promise<Output<M>> => {
    const res = await caller.call(method, input);
    if (!res.ok) throw new Error(`native ${method}: ${res.error.code} ${res.error.message}`);
    return res.data;
  };
  const turns: Iterator<CorpusTurn> = generateTurns({ seed: opts.seed, count: opts.total });
  let stored = 0;
  let sessions = 0;
  let open: OpenSession | null = null;

  let pending: CorpusTurn | null = null;
  const next = (): CorpusTurn => {
    const n = turns.next();
    if (n.done) throw new Error('the corpus ran out of turns');
    return n.value;
  };
  /** The next turn; a new conversation is opened (and the finished one's summaries made) before it is timed. */
  async function prepare(): Promise<CorpusTurn> {
    if (pending) return pending;
    const turn = next();
    if (open?.no !== turn.session) {
      // The app's jobs worker makes a conversation's due rolling summaries soon after its turns (summary.roll).
      if (open) await must('summary.roll', { sessionId: open.id });
      open = { no: turn.session, id: (await must('session.create', {})).id };
      sessions++;
    }
    pending = turn;
    return turn;
  }

  async function append(): Promise<void> {
    const turn = await prepare();
    await must('message.append', { sessionId: (open as OpenSession).id, role: turn.role, content: turn.content });
    pending = null;
    stored++;
  }

  const bulk = createBulkWriter(db);
  /** fillTo's bulk path: the same rows as the engine path below (bulk-fill.test.ts), FILL_BATCH turns per transaction. */
  async function bulkFillTo(upTo: number, progress?: (stored: number) => void): Promise<void> {
    // The timed appends (the engine) may have moved the open conversation on since the last fill.
    if (open) bulk.resume(open.id);
    while (stored < upTo) {
      const rolled: Promise<IpcResponse<unknown>>[] = [];
      const end = Math.min(upTo, stored + BULK_BATCH);
      engine.env.driver.transaction(() => {
        while (stored < end) {
          const turn = pending ?? next();
          if (!pending && open?.no !== turn.session) {
            if (open) {
              bulk.flush();
              // The rolling summaries through the engine, as the engine path makes them (once per conversation).
              rolled.push(engine.handle({ method: 'summary.roll', input: { sessionId: open.id } }));
            }
            open = { no: turn.session, id: randomId() };
            bulk.openSession(open.id);
            sessions++;
          }
          bulk.append(turn.role, turn.content);
          pending = null;
          stored++;
        }
        bulk.flush();
      });
      for (const reply of rolled) {
        const res = await reply;
        if (!res.ok) throw new Error(`native summary.roll: ${res.error.code} ${res.error.message}`);
      }
      progress?.(stored);
    }
  }

  return {
    async fillTo(upTo, progress) {
      // A bulk fill: no journal file and no fsync (the timed phase restores the browser's durability) …
      db.pragma('journal_mode = MEMORY');
      db.pragma('synchronous = OFF');
      // … and FILL_BATCH turns per transaction. Each call is still one engine write through engine.handle, with
      // its own transaction — nested, a savepoint — so the rows are those the app writes; what a batch saves is
      // the per-commit work, above all FTS5 flushing a new index segment (and merging) at every commit.
      if (opts.fill !== 'engine') {
        await bulkFillTo(upTo, progress);
        return;
      }
      while (stored < upTo) {
        const sent: { method: Method; reply: Promise<IpcResponse<unknown>> }[] = [];
        // engine.handle runs a write synchronously up to its answer, so every call lands inside the batch.
        const send = (method: Method, input: unknown) => sent.push({ method, reply: engine.handle({ method, input }) });
        const end = Math.min(upTo, stored + FILL_BATCH);
        engine.env.driver.transaction(() => {
          while (stored < end) {
            const turn = pending ?? next();
            if (!pending && open?.no !== turn.session) {
              if (open) send('summary.roll', { sessionId: open.id });
              open = { no: turn.session, id: randomId() };
              send('session.create', { id: open.id });
              sessions++;
            }
            send('message.append', { sessionId: (open as OpenSession).id, role: turn.role, content: turn.content });
            pending = null;
            stored++;
          }
        });
        for (const { method, reply } of sent) {
          const res = await reply;
          if (!res.ok) throw new Error(`native ${method}: ${res.error.code} ${res.error.message}`);
        }
        progress?.(stored);
      }
    },
    async storeTimed(upTo) {
      db.pragma('journal_mode = DELETE');
      db.pragma('synchronous = FULL');
      const out: number[] = [];
      while (stored < upTo) {
        await prepare();
        const t0 = performance.now();
        await append();
        out.push(performance.now() - t0);
      }
      return out;
    },
    async recall(queries, limit) {
      const out: { kind: string; ms: number }[] = [];
      for (const q of queries) {
        const t0 = performance.now();
        await must('recall.search', { query: q.text, limit });
        out.push({ kind: q.kind, ms: performance.now() - t0 });
      }
      return out;
    },
    snapshot(path) {
      const bytes = db.serialize();
      writeFileSync(path, bytes);
      return bytes.length;
    },
    openSession: () => open,
    dbBytes: async () => (await must('system.status', {})).dbBytes,
    turns: () => stored,
    sessions: () => sessions,
    close: () => engine.close(),
  };
}

/**
 * A backup file of `count` memories (the app's export format), written by the same engine on an in-memory native
 * database: what the stall benchmark imports into the browser's database (issue 16 item 5).
 */
export async function writeMemoryBackup(path: string, opts: { seed: number; count: number }): Promise<number> {
  const engine = createEngine(
    { driver: createBetterSqlite3Driver(new Database(':memory:')), clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'native benchmark' }, startedAt: Date.now() },
    loadMigrationsFromDisk(),
  );
  const caller = createCaller({ call: (req) => engine.handle(req) });
  for (const m of generateMemories({ seed: opts.seed + 1, count: opts.count })) {
    const res = await caller.call('memory.create', m);
    if (!res.ok) throw new Error(`native memory.create: ${res.error.code} ${res.error.message}`);
  }
  const started = await caller.call('backup.exportBegin', { scope: { kind: 'all' } });
  if (!started.ok) throw new Error(started.error.message);
  const parts: string[] = [];
  for (;;) {
    const chunk = await caller.call('backup.exportChunk', { exportId: started.data.exportId, maxChars: 4_000_000 });
    if (!chunk.ok) throw new Error(chunk.error.message);
    parts.push(chunk.data.text);
    if (chunk.data.done) break;
  }
  engine.close();
  const text = parts.join('');
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}

/** A native store of `turns` turns at `path` (bulk-filled as bench:speed fills it, seed 42), made once and kept. */
export async function filledSnapshot(path: string, turns: number): Promise<void> {
  if (existsSync(path)) return;
  const run = openNative({ path: `${path}.fill`, seed: 42, total: turns });
  await run.fillTo(turns, (n) => process.stdout.write(`\r  filled ${n}`));
  run.snapshot(path);
  run.close();
  rmSync(`${path}.fill`, { force: true });
  console.log('');
}
