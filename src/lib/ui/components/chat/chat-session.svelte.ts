import { budgetsForWindow } from '../../../domain/context/window-budgets';
import type { Message } from '../../../domain/conversation/types';
import type { IpcError, IpcResponse } from '../../../domain/errors';
import { startGeneration, type Generation, type GenerationOutcome } from '../../../engine/client/generation-run';
import type { Input } from '../../../engine/protocol/contract';
import type { PreparedTurn } from '../../../engine/turn/types';
import type { ModelSettings } from '../../../domain/llm/settings';
import { errorText } from '../../app/handle-error.svelte';
import { memoryStatus } from '../../app/memory-status.svelte';
import { t } from '../../i18n/i18n.svelte';
import type { ChatDeps } from './chat-deps';
import { emptyWindow, loadEarlier, loadLater, newestPage, pageAround, reread, type ListPage, type MessageWindow } from './message-paging';

type Phase = 'idle' | 'saving' | 'building' | 'streaming';

/**
 * One open conversation: its messages, the reply being written, and the turn — turn.prepare (the message
 * stored, the context built) → stream → turn.finish (the reply stored, the run completed, the after-reply
 * work queued), driven by engine/client/generation-run.ts. Every user message is stored (or kept in the
 * outbox) before it shows as sent; a reply is stored when it completes, is stopped (status 'stopped') or
 * fails part-way ('failed'). Its ports come in `deps` (chat-deps.ts), so a test drives it on a real engine.
 */
export class ChatSession {
  sessionId = $state<string | null>(null);
  messages = $state.raw<Message[]>([]);
  phase = $state<Phase>('idle');
  /** The reply while it streams. */
  draftReply = $state('');
  error = $state<string | null>(null);
  /** Shown after a send when no model is set up. */
  noModel = $state(false);
  /** A user message saved on this device but not yet in the database. */
  queued = $state<string | null>(null);
  /** The turn in progress: Stop reaches its build or its stream (seed 004 "用户取消"). */
  #generation: Generation<PreparedTurn> | null = null;
  #lastUser: Message | null = null;
  #deps: ChatDeps;

  constructor(deps: ChatDeps) {
    this.#deps = deps;
  }
  /** The conversation is shown a window at a time (message-paging.ts): is there more before / after it? */
  hasEarlier = $state(false);
  hasLater = $state(false);
  paging = $state(false);
  #pageSeq = 0;
  #opening: Promise<{ found: boolean }> | null = null;

  get busy(): boolean {
    return this.phase !== 'idle';
  }

  /** Opens a conversation on its newest page, or (from the recall page) on the page around `around`. */
  async open(sessionId: string | null, opts: { around?: number } = {}): Promise<{ found: boolean }> {
    this.sessionId = sessionId;
    this.error = null;
    this.noModel = false;
    this.queued = null;
    this.#show(emptyWindow());
    const opening = (async () => {
      if (!sessionId) return { found: true };
      if (opts.around === undefined) {
        await this.#page(() => newestPage(this.#list(sessionId)));
        return { found: true };
      }
      const res = await this.#page(() => pageAround(this.#list(sessionId), opts.around as number));
      return { found: !res || res.found };
    })();
    this.#opening = opening;
    try {
      return await opening;
    } finally {
      if (this.#opening === opening) this.#opening = null;
    }
  }

  /** The shown stretch again (after a write anywhere); new messages join at the newest end. */
  async reload(): Promise<void> {
    // A write while a conversation opens: re-read what the opening shows, never race it.
    if (this.#opening) await this.#opening;
    const sessionId = this.sessionId;
    if (!sessionId) return this.#show(emptyWindow());
    await this.#page(() => reread(this.#list(sessionId), this.#window()));
  }

  async loadEarlier(): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId && this.hasEarlier) await this.#page(() => loadEarlier(this.#list(sessionId), this.#window()));
  }

  async loadLater(): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId && this.hasLater) await this.#page(() => loadLater(this.#list(sessionId), this.#window()));
  }

  /** Back to the newest messages (after jumping to an old one). */
  async showLatest(): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId) await this.#page(() => newestPage(this.#list(sessionId)));
  }

  #list(sessionId: string): ListPage {
    return (q) => this.#deps.engine.call('message.list', { sessionId, ...q });
  }

  #window(): MessageWindow {
    return { messages: this.messages, hasEarlier: this.hasEarlier, hasLater: this.hasLater };
  }

  #show(w: MessageWindow): void {
    this.messages = w.messages;
    this.hasEarlier = w.hasEarlier;
    this.hasLater = w.hasLater;
  }

  /** Reads a page; only the newest read for the still-open conversation is shown. */
  async #page<W extends MessageWindow>(read: () => Promise<IpcResponse<W>>): Promise<W | null> {
    const seq = ++this.#pageSeq;
    const sessionId = this.sessionId;
    this.paging = true;
    const res = await read();
    if (seq !== this.#pageSeq) return null;
    this.paging = false;
    if (sessionId !== this.sessionId) return null;
    if (res.ok) {
      this.#show(res.data);
      return res.data;
    }
    if (res.error.code === 'NOT_FOUND') {
      this.sessionId = null;
      this.#show(emptyWindow());
    }
    return null;
  }

  /** Sends a message; creates the conversation on the first one. Returns false when nothing was sent. */
  async send(text: string): Promise<boolean> {
    const content = text.trim();
    if (!content || this.busy) return false;
    this.error = null;
    this.noModel = false;
    this.phase = 'building';
    try {
      const sessionId = this.sessionId;
      const out = await this.#turn(sessionId ? { sessionId, content } : { content });
      if (out.kind === 'unprepared' && out.prepared === null) {
        // No database answered: the message waits in the outbox (an existing conversation), or the send fails.
        if (out.error.code === 'DB_UNAVAILABLE' && sessionId) return this.#queue(sessionId, content);
        return this.fail(out.error);
      }
      return true;
    } finally {
      this.phase = 'idle';
    }
  }

  /** Esc / the stop button: while the context is built, the build is canceled; while streaming, the reply so far is kept, marked as stopped. */
  stop(): void {
    this.#generation?.stop();
  }

  /** Writes the last reply again (the failed or unwanted one is replaced, in the same call that builds the new context). */
  async retry(): Promise<void> {
    if (this.busy || !this.sessionId) return;
    const lastUser = [...this.messages].reverse().find((m) => m.role === 'user') ?? this.#lastUser;
    if (!lastUser) return;
    this.error = null;
    this.phase = 'building';
    try {
      const out = await this.#turn({ sessionId: lastUser.sessionId, retryOf: lastUser.id });
      if (out.kind === 'unprepared' && out.prepared === null) this.fail(out.error);
    } finally {
      this.phase = 'idle';
    }
  }

  async toggleStar(message: Message): Promise<void> {
    const res = await this.#deps.engine.call('message.update', { id: message.id, isCollected: !message.isCollected });
    if (res.ok) this.messages = this.messages.map((m) => (m.id === message.id ? res.data : m));
  }

  private fail(error: IpcError | { code: string; message: string }): false {
    this.error = errorText(error);
    return false;
  }

  async #queue(sessionId: string, content: string): Promise<boolean> {
    const stored = await this.#deps.outbox.write('message.append', { sessionId, role: 'user', content });
    if (stored.ok) {
      this.#showUser(stored.data.message, []);
      return true;
    }
    if ('queued' in stored) {
      this.queued = content;
      return true;
    }
    return this.fail(stored.error);
  }

  /** The user's message comes into view (after a jump to an older stretch, the conversation's end does). */
  #showUser(message: Message, removed: readonly number[]): void {
    this.#lastUser = message;
    if (this.sessionId !== message.sessionId) return;
    if (this.hasLater) {
      void this.showLatest();
      return;
    }
    const kept = this.messages.filter((m) => !removed.includes(m.id));
    this.messages = kept.some((m) => m.id === message.id) ? kept : [...kept, message];
  }

  /** One turn: prepare (one call) → stream → finish (one call); the page shows each phase. */
  async #turn(ask: Pick<Input<'turn.prepare'>, 'sessionId' | 'content' | 'retryOf'>): Promise<GenerationOutcome<PreparedTurn>> {
    const deps = this.#deps;
    const settings = await deps.settings();
    const provider = deps.provider(settings);
    this.draftReply = '';
    const generation = startGeneration<PreparedTurn>(
      { engine: deps.engine, provider, clock: deps.clock },
      {
        prepare: (requestId): Promise<IpcResponse<PreparedTurn>> =>
          deps.engine.call('turn.prepare', {
            ...ask,
            requestId,
            locale: deps.locale(),
            tokenRatio: settings.tokenRatio,
            // Per model (004): the layers are cut to fit this model's context window, with room for the reply.
            budgets: budgetsForWindow(settings.contextWindow),
          }),
        runOf: (p) => (p.context.ok ? { ok: true, run: { runId: p.context.run.runId, messages: p.context.run.messages, agentic: p.agenticSearch } } : { ok: false, error: p.context.error }),
        userMessageId: (p) => p.message.id,
        model: settings.model,
        onPrepared: (p) => {
          if (p.context.ok) memoryStatus.note(p.context.run.memoryDegraded);
          if (this.sessionId === null || this.sessionId === p.session.id) this.sessionId = p.session.id;
          this.#showUser(p.message, p.removed);
        },
        onPhase: (phase) => {
          // The streamed text stays in view until the stored reply replaces it.
          if (phase === 'streaming') this.phase = 'streaming';
        },
        onText: (text) => (this.draftReply = text),
      },
    );
    this.#generation = generation;
    try {
      const out = await generation.done;
      this.#settle(out, settings);
      return out;
    } finally {
      this.#generation = null;
      this.draftReply = '';
    }
  }

  /** What a finished turn shows: the stored reply, "needs a model", or why there is no reply. */
  #settle(out: GenerationOutcome<PreparedTurn>, settings: ModelSettings): void {
    if (out.kind === 'unprepared') {
      // Stopped while building: the message stays, there is simply no reply (and nothing to report).
      if (out.prepared && out.error.code !== 'CANCELED') this.fail(out.error);
      return;
    }
    const reply = out.finished?.message;
    if (reply && this.sessionId === reply.sessionId && !this.messages.some((m) => m.id === reply.id)) this.messages = [...this.messages, reply];
    if (out.kind === 'no-model') this.noModel = true;
    if (out.finishError) this.fail(out.finishError);
    else if (out.kind === 'failed' && out.error) this.error = t('chat:errors.reply', { message: errorText(out.error) });
    // Stored before by a worker that then restarted: its answer is gone, the window shows what is stored.
    if (out.finished === null && !out.finishError) void this.reload();
    const job = out.finished?.afterReply;
    if (job) this.#deps.afterReply(job, settings);
  }
}
