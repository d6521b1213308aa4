/**
 * Send overhead (issue 16 item 2), in the harness page, through the product's own turn path: the generation-run
 * module the chat uses, turn.prepare and turn.finish on the DB worker, and the openai-compatible provider talking
 * to a local scripted model (serve.ts) that answers at once — so what is timed is the product's cost.
 *
 *   send ─▶ turn.prepare (message stored, context built) ─▶ request leaves ······ reply done ─▶ turn.finish ─▶ stored
 *   |──────────────── send → request leaves ───────────|                       |── reply done → stored ──|
 */
import { systemClock } from '../../src/lib/domain/clock';
import { createProvider } from '../../src/lib/domain/llm';
import { DEFAULT_MODEL_SETTINGS } from '../../src/lib/domain/llm/settings';
import type { EngineCaller } from '../../src/lib/engine/client/caller';
import { startGeneration } from '../../src/lib/engine/client/generation-run';
import type { PreparedTurn } from '../../src/lib/engine/turn/types';

export interface TurnTimings {
  sendToRequestMs: number[];
  replyToStoredMs: number[];
  /** Engine calls per turn (prepare + finish, and anything else the path made). */
  callsPerTurn: number;
}

const QUESTIONS = ['parseConfig 登录超时 怎么处理？', 'How should processPayment handle a retry?', 'renderChart 在 Safari 上报错', 'Why does the cache miss after deploy?'];

export async function timeTurns(opts: { engine: EngineCaller; turns: number }): Promise<TurnTimings> {
  let leftAt = 0;
  const provider = createProvider(
    { ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: `${location.origin}/v1`, model: 'scripted', timeoutMs: 10_000 },
    {
      fetch: (input, init) => {
        if (String(input).includes('/chat/completions')) leftAt = performance.now();
        return fetch(input, init);
      },
    },
  );
  let calls = 0;
  const engine: EngineCaller = { call: (m, i, o) => (calls++, opts.engine.call(m, i, o)) };
  const out: TurnTimings = { sendToRequestMs: [], replyToStoredMs: [], callsPerTurn: 0 };
  let sessionId: string | undefined;
  for (let i = 0; i < opts.turns; i++) {
    // A new conversation every 10 turns, as people start them.
    if (i % 10 === 0) sessionId = undefined;
    const sentAt = performance.now();
    let finishingAt = 0;
    const content = `${QUESTIONS[i % QUESTIONS.length]} (${i})`;
    const gen = startGeneration<PreparedTurn>(
      { engine, provider, clock: systemClock },
      {
        prepare: (requestId) => engine.call('turn.prepare', { ...(sessionId ? { sessionId } : {}), content, requestId, locale: 'en' }),
        runOf: (p) => (p.context.ok ? { ok: true, run: { runId: p.context.run.runId, messages: p.context.run.messages, agentic: p.agenticSearch } } : { ok: false, error: p.context.error }),
        userMessageId: (p) => p.message.id,
        model: 'scripted',
        onPhase: (phase) => {
          if (phase === 'finishing') finishingAt = performance.now();
        },
      },
    );
    const done = await gen.done;
    const storedAt = performance.now();
    if (done.kind !== 'completed' || !done.finished?.message) throw new Error(`turn ${i}: ${done.kind} ${'error' in done ? JSON.stringify(done.error) : ''}`);
    sessionId = done.prepared.session.id;
    out.sendToRequestMs.push(leftAt - sentAt);
    out.replyToStoredMs.push(storedAt - finishingAt);
  }
  out.callsPerTurn = calls / opts.turns;
  return out;
}
