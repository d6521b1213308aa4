/**
 * One generation — a chat turn or a skill run — driven the same way wherever it is used (issue 16): one engine
 * call prepares it, the model streams, one engine call finishes it. Stop, the model's failures and a database
 * worker that restarts mid-stream are handled here once; the chat and the Write page only render the phases.
 * Everything it needs is passed in (the engine, the model, the clock), so a test drives it without a page.
 *
 *   preparing ─ spec.prepare(requestId) ── no run (stopped while building, a failure) ─▶ 'unprepared'
 *      │ stop(): context.cancel(requestId)
 *      ▼
 *   no model? ─▶ finishing(completed, '') ─▶ 'no-model'
 *      ▼
 *   streaming ─ the model (search_memories offered when the turn asks for it) ─ onDelta
 *      │ stop(): the request is aborted ─▶ CANCELED ─ the text so far is kept, as stopped
 *      ▼
 *   finishing ─ turn.finish(outcome, text): one op id; while the database cannot be reached it is sent again
 *      ▼        (up to FINISH_RETRIES more times), so a worker that restarted stores the reply once
 *   'completed' | 'stopped' | 'failed'
 */
import { stripScaffolding } from '../../domain/context/reply-clean';
import type { Clock } from '../../domain/clock';
import { EngineError, type IpcError, type IpcResponse } from '../../domain/errors';
import type { ChatMessage, ModelProvider } from '../../domain/llm/types';
import type { FinishedTurn } from '../turn/types';
import type { EngineCaller } from './caller';
import { generateReply } from './generate-reply';
import { newOpId } from './op-id';

export type GenerationPhase = 'preparing' | 'streaming' | 'finishing' | 'done';

/** What a prepared generation streams for. */
export interface PreparedRun {
  runId: string;
  messages: ChatMessage[];
  /** Offer the model search_memories (000 主动记忆搜索). */
  agentic: boolean;
}

export interface GenerationDeps {
  engine: Pick<EngineCaller, 'call'>;
  provider: ModelProvider;
  clock: Clock;
  /** Request ids (context.cancel) and the finish's op id. */
  newId?: () => string;
  sleep?: (ms: number) => Promise<void>;
}

export interface GenerationSpec<P> {
  /** The one call that stores what must be stored first and builds the request (turn.prepare, context.build). */
  prepare(requestId: string): Promise<IpcResponse<P>>;
  /** The run to stream for, or why there is none (the build was stopped or failed) — the call itself succeeded. */
  runOf(prepared: P): { ok: true; run: PreparedRun } | { ok: false; error: IpcError };
  /** The finish's fields besides the outcome: the user message whose after-reply work it queues, the model's name. */
  userMessageId?: (prepared: P) => number | undefined;
  model?: string;
  /**
   * false: the run was finished by an earlier generation and this one only streams another version of it (a
   * skill's further candidate, 003) — no turn.finish is sent, whatever the outcome. Default true.
   */
  finishes?: boolean;
  /** Right after the prepare call answered (the user's message is stored: show it). */
  onPrepared?: (prepared: P) => void;
  onPhase?: (phase: GenerationPhase) => void;
  /** The reply so far, after each piece. */
  onText?: (text: string) => void;
}

type Finished = 'no-model' | 'completed' | 'stopped' | 'failed';

export type GenerationOutcome<P> =
  | { kind: 'unprepared'; prepared: P | null; error: IpcError }
  | {
      kind: Finished;
      prepared: P;
      runId: string;
      text: string;
      /** Why the model's reply ended early ('stopped' and 'failed'). */
      error: IpcError | null;
      /** turn.finish's answer; null if it was already applied (a re-send after a restart) or never got through. */
      finished: FinishedTurn | null;
      /** Set when turn.finish failed for good: the reply could not be stored. */
      finishError: IpcError | null;
      toolMemoryIds: string[];
    };

export interface Generation<P> {
  readonly done: Promise<GenerationOutcome<P>>;
  readonly phase: GenerationPhase;
  /** Stop: a build in progress is canceled, a stream is aborted (its text kept). */
  stop(): void;
}

/** ARCHITECTURE §8: a write that fails is tried again up to 3 times. */
export const FINISH_RETRIES = 3;
const RETRY_CODES = new Set(['DB_UNAVAILABLE', 'INTERNAL']);
const retryDelayMs = (attempt: number) => 250 * 2 ** attempt;

const asIpcError = (err: unknown): IpcError => {
  if (err instanceof EngineError) return err.details ? { code: err.code, message: err.message, details: err.details } : { code: err.code, message: err.message };
  return { code: 'INTERNAL', message: err instanceof Error ? err.message : 'the model request failed' };
};

export function startGeneration<P>(deps: GenerationDeps, spec: GenerationSpec<P>): Generation<P> {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const requestId = newId();
  const abort = new AbortController();
  let phase: GenerationPhase = 'preparing';
  let stopped = false;
  const enter = (next: GenerationPhase) => {
    phase = next;
    spec.onPhase?.(next);
  };

  async function finish(runId: string, body: { outcome: 'completed' | 'canceled' | 'failed' | 'timeout'; text: string; errorCode?: string; toolMemoryIds: string[] }, prepared: P) {
    enter('finishing');
    if (spec.finishes === false) return { finished: null, finishError: null };
    const opId = newOpId(deps.clock.now());
    const userMessageId = spec.userMessageId?.(prepared);
    const input = {
      runId,
      ...body,
      ...(userMessageId !== undefined ? { userMessageId } : {}),
      ...(spec.model !== undefined ? { model: spec.model } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      const res = await deps.engine.call('turn.finish', input, { opId });
      if (res.ok) return { finished: res.data ?? null, finishError: null };
      if (!RETRY_CODES.has(res.error.code) || attempt >= FINISH_RETRIES) return { finished: null, finishError: res.error };
      await sleep(retryDelayMs(attempt));
    }
  }

  async function run(): Promise<GenerationOutcome<P>> {
    enter('preparing');
    const res = await spec.prepare(requestId);
    if (!res.ok) return { kind: 'unprepared', prepared: null, error: res.error };
    const prepared = res.data;
    spec.onPrepared?.(prepared);
    const built = spec.runOf(prepared);
    if (!built.ok) return { kind: 'unprepared', prepared, error: built.error };
    const { run: r } = built;
    const base = { prepared, runId: r.runId, toolMemoryIds: [] as string[] };
    if (stopped) {
      const f = await finish(r.runId, { outcome: 'canceled', text: '', toolMemoryIds: [] }, prepared);
      return { kind: 'stopped', ...base, text: '', error: { code: 'CANCELED', message: 'Stopped before the model was asked.' }, ...f };
    }
    if (!deps.provider.canGenerate) {
      const f = await finish(r.runId, { outcome: 'completed', text: '', toolMemoryIds: [] }, prepared);
      return { kind: 'no-model', ...base, text: '', error: null, ...f };
    }
    enter('streaming');
    let text = '';
    try {
      const reply = await generateReply({
        engine: deps.engine,
        provider: deps.provider,
        messages: r.messages,
        runId: r.runId,
        signal: abort.signal,
        clock: deps.clock,
        agentic: r.agentic,
        onDelta: (delta) => {
          text += delta;
          // A model that copies the prompt's headings or citations into its answer: not shown, not stored (issue 15).
          spec.onText?.(stripScaffolding(text));
        },
      });
      text = stripScaffolding(reply.text);
      const f = await finish(r.runId, { outcome: 'completed', text, toolMemoryIds: reply.toolMemoryIds }, prepared);
      return { kind: 'completed', ...base, text, error: null, toolMemoryIds: reply.toolMemoryIds, ...f };
    } catch (err) {
      const error = stopped && !(err instanceof EngineError && err.code !== 'CANCELED') ? { code: 'CANCELED' as const, message: 'The reply was stopped.' } : asIpcError(err);
      const outcome = error.code === 'CANCELED' ? 'canceled' : error.code === 'TIMEOUT' ? 'timeout' : 'failed';
      text = stripScaffolding(text);
      const f = await finish(r.runId, { outcome, text, errorCode: outcome === 'canceled' ? undefined : error.code, toolMemoryIds: [] }, prepared);
      return { kind: outcome === 'canceled' ? 'stopped' : 'failed', ...base, text, error, ...f };
    }
  }

  const done = run().finally(() => enter('done'));
  return {
    done,
    get phase() {
      return phase;
    },
    stop() {
      if (stopped || phase === 'finishing' || phase === 'done') return;
      stopped = true;
      if (phase === 'preparing') void deps.engine.call('context.cancel', { requestId });
      abort.abort();
    },
  };
}
