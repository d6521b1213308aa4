import { z } from 'zod';
import { EngineError, fail, ok, type IpcResponse } from '../domain/errors';
import { invalidArgument } from '../domain/validation';
import { opScopedIds } from '../domain/op-scoped-ids';
import { createAdmission, MAX_MEMORY_QUERIES } from './admission';
import type { EngineEnv } from './env';
import { handlerSet, type HandlerMap } from './handlers';
import { createServices } from './services';
import { COMMON_ERRORS } from './protocol/define';
import { contract, isMethod, type Input, type Method, type Output } from './protocol/contract';
import type { Migration } from './store/migrate';
import { migrate } from './store/migrate';
import { classifySqliteError } from './store/sqlite-errors';
import { resumableTransaction } from './store/driver';
import { ensureSegmenterVersion } from './store/fts-reindex';
import { automergeAtOpen, automergeFor } from './store/fts-merge';
import { keepSegmentsMerged } from './store/fts-merge-keeper';
import { createSessionChangeLog, type SessionChangeSet } from './store/session-changes';
import { noteTimeline, timelineRecording } from './store/worker-timeline';
import { ioSince, ioSnapshot } from './store/io-counters';
import type { TwoStep } from './protocol/define';

export interface EngineRequest {
  method: string;
  input: unknown;
  /** Idempotency key for writes: the same op id is applied once. */
  opId?: string;
  /**
   * The answer must outlive this leader: the call came from another tab, which re-sends it to the next leader
   * if this one dies before answering (db-host.ts). Its result is then kept (op_results) for the re-send.
   * A tab's own calls die with it, so theirs is not written.
   */
  keepResult?: boolean;
}

export interface ChangeEvent {
  method: Method;
  at: number;
  /** The conversations the write changed (absent: none), so a list of them updates those rows only. */
  sessions?: SessionChangeSet;
}

export interface Engine {
  readonly env: EngineEnv;
  handle(req: EngineRequest): Promise<IpcResponse<unknown>>;
  call<M extends Method>(method: M, input: Input<M>, opts?: { opId?: string }): Promise<IpcResponse<Output<M>>>;
  onChange(listener: (change: ChangeEvent) => void): () => void;
  /** Rows the engine's own upkeep changed (the merge keeper's FTS5 pieces): no view shows them (host/db-host.ts). */
  upkeepChanges(): number;
  close(): void;
}

const opIdSchema = z.string().min(8).max(100);
/** A re-sent write arrives within seconds of the first (leader hand-over, relay retry), and only the
 *  writes in flight at that moment can be re-sent. */
const RESULT_TTL_MS = 2 * 60_000;
const RESULTS_KEPT = 256;
const PRUNE_EVERY = 64;

/**
 * Builds the engine on an open driver: migrates, then answers calls. Nothing thrown inside a handler
 * escapes: expected failures (EngineError) become their code, anything else INTERNAL with the cause logged.
 */
export function createEngine(env: EngineEnv, migrations: readonly Migration[]): Engine {
  env.driver.exec('PRAGMA foreign_keys = ON');
  const report = migrate(env.driver, migrations, () => env.clock.now());
  if (report.applied.length) env.log.info('db.migrated', { from: report.from, to: report.to });
  // ARCHITECTURE §5: an index built by another segmenter (ICU, rules) is rebuilt before the first query.
  ensureSegmenterVersion(env);
  // FTS5's automerge off on every text index (issue 19): segments are merged between calls by the merge keeper,
  // never in a person's COMMIT (store/fts-merge.ts) — in the browser; the Node hosts keep FTS5's own merging. A
  // database opened read-only keeps it as it is: searching works either way, and nothing writes.
  const merging = env.ftsMerging ?? 'keeper';
  try {
    const set = automergeAtOpen(env.driver, merging);
    if (set.length) env.log.info('fts.automerge-set', { indexes: set.length, automerge: automergeFor(merging) });
  } catch (err) {
    env.log.warn('fts.automerge-set-failed', { cause: err instanceof Error ? err.name : 'unknown' });
  }
  const merges = merging === 'keeper' ? keepSegmentsMerged(env.driver) : null;
  // A write's new rows get ids derived from its op id, so the same write applied again creates the same ids.
  const ids = opScopedIds(env.ids);
  const services = createServices({ ...env, ids: ids.next });
  const handlers: HandlerMap = handlerSet(services);
  const listeners = new Set<(change: ChangeEvent) => void>();
  const memoryQueries = createAdmission(MAX_MEMORY_QUERIES);
  const sessionChanges = createSessionChangeLog(env.driver);

  function announce(method: Method): void {
    const sessions = sessionChanges.take();
    const change: ChangeEvent = sessions ? { method, at: env.clock.now(), sessions } : { method, at: env.clock.now() };
    for (const l of listeners) l(change);
  }

  async function handle(req: EngineRequest): Promise<IpcResponse<unknown>> {
    // Off unless a benchmark turned it on (DbWorkerApi.recordTimeline): then not even a clock read per call.
    if (!timelineRecording()) return answer(req);
    const io0 = ioSnapshot();
    const t0 = performance.now();
    const res = await answer(req);
    // Kept for the stall probe's breakdown (store/worker-timeline.ts): the method, its time and what it wrote to the
    // files (pages, flushes: io-counters.ts, where counted), nothing of the call.
    noteTimeline('call', t0, performance.now() - t0, req.method, ioSince(io0));
    return res;
  }

  async function answer(req: EngineRequest): Promise<IpcResponse<unknown>> {
    const { method } = req;
    if (!isMethod(method)) return fail('INVALID_ARGUMENT', 'Invalid `method`: unknown engine call', { fields: ['method'] });
    const spec = contract[method];
    try {
      const parsed = spec.input.safeParse(req.input ?? {});
      if (!parsed.success) throw invalidArgument(parsed.error);
      if (req.opId !== undefined && !opIdSchema.safeParse(req.opId).success)
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `opId`: expected a string of 8–100 characters', { fields: ['opId'] });
      const handler = handlers[method] as (input: unknown) => unknown;
      let data: unknown;
      if (spec.write && spec.twoStep) {
        const steps = handler(parsed.data) as TwoStep<unknown, unknown>;
        const written = runWrite(method, req, () => steps.write(), steps.syncInThen === true);
        merges?.wrote();
        announce(method);
        data = await steps.then(written ?? null);
        // Its second step may have written too (a clean-up's slices, an import's).
        merges?.wrote();
        if (steps.announceAfter) announce(method);
      } else if (spec.write) {
        data = runWrite(method, req, () => handler(parsed.data));
        merges?.wrote();
        announce(method);
      } else if (spec.memoryQuery) {
        const run = await memoryQueries.run(() => handler(parsed.data));
        if (!run.admitted)
          throw new EngineError('MEMORY_BACKPRESSURE', `Too many memory searches at once (${run.waiting} running or waiting). Try again in a moment.`, {
            limit: MAX_MEMORY_QUERIES,
          });
        data = run.value;
      } else {
        data = await handler(parsed.data);
      }
      return ok(data);
    } catch (err) {
      return toFailure(method, err);
    }
  }

  let writesSincePrune = 0;

  /**
   * Idempotency: a write carrying an op id is applied once. The op id is remembered (applied_ops, pruned
   * after 7 days by maintenance.optimize) and its result kept for RESULT_TTL_MS (op_results), so a write
   * re-sent after a leader hand-over gets the first answer back; after that the op id alone keeps it from
   * applying twice (an outbox drain only needs to know it was applied) and the answer is null.
   */
  function runWrite(method: Method, req: EngineRequest, run: () => unknown, syncLater = false): unknown {
    const { opId } = req;
    // syncLater: a two-step write whose `then` syncs before it answers (TwoStep.syncInThen).
    const transaction = syncLater ? <T>(fn: () => T): T => resumableTransaction(env.driver, fn) : <T>(fn: () => T): T => env.driver.transaction(fn);
    return ids.during(opId, () => transaction(() => {
      if (opId && env.driver.get('SELECT 1 FROM applied_ops WHERE op_id = ?', [opId])) {
        const prior = env.driver.get<{ result: string }>('SELECT result FROM op_results WHERE op_id = ?', [opId]);
        return prior ? JSON.parse(prior.result) : null;
      }
      const data = run();
      if (data instanceof Promise) throw new Error(`write handler ${method} must be synchronous`);
      if (opId) {
        const now = env.clock.now();
        env.driver.run('INSERT INTO applied_ops (op_id, applied_at) VALUES (?, ?)', [opId, now]);
        if (req.keepResult && data !== undefined) env.driver.run('INSERT INTO op_results (op_id, result, applied_at) VALUES (?, ?, ?)', [opId, JSON.stringify(data), now]);
        if (++writesSincePrune >= PRUNE_EVERY) {
          writesSincePrune = 0;
          env.driver.run('DELETE FROM op_results WHERE applied_at < ? OR rid <= (SELECT MAX(rid) FROM op_results) - ?', [now - RESULT_TTL_MS, RESULTS_KEPT]);
        }
      }
      return data;
    }));
  }

  function toFailure(method: Method, err: unknown): IpcResponse<never> {
    const known = err instanceof EngineError ? err : classifySqliteError(err);
    if (known) {
      const declared: readonly string[] = [...COMMON_ERRORS, ...contract[method].errors];
      if (!declared.includes(known.code)) env.log.warn('engine.undeclared-error', { method, code: known.code });
      return fail(known.code, known.message, known.details);
    }
    const cause = err instanceof Error ? `${err.name}: ${err.message}` : 'non-error thrown';
    env.log.error('engine.internal', { method, cause, stack: err instanceof Error ? err.stack?.split('\n').slice(0, 4).join(' | ') : undefined });
    return fail('INTERNAL', `Engram hit an internal error in ${method}. Your data is unchanged; please report it.`);
  }

  return {
    env,
    handle,
    call: (method, input, opts) => handle({ method, input, opId: opts?.opId }) as never,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    upkeepChanges: () => merges?.changes ?? 0,
    close: () => {
      services.embeddings.semantic.dispose(); // the vector-search worker of this database ends with it
      merges?.close(); // a merge task still queued must not run on the closed connection
      env.driver.close();
    },
  };
}
