import { stripScaffolding } from '../../../domain/context/reply-clean';
import { budgetsForWindow } from '../../../domain/context/window-budgets';
import type { Message } from '../../../domain/conversation/types';
import { EngineError, type IpcError, type IpcResponse } from '../../../domain/errors';
import { createProvider } from '../../../domain/llm';
import type { ChatMessage, ModelProvider } from '../../../domain/llm/types';
import { systemClock } from '../../../domain/clock';
import { connection } from '../../app/connection.svelte';
import { errorText, notices } from '../../app/handle-error.svelte';
import { modelSettings } from '../../app/model-settings.svelte';
import { profileChangeNotice } from '../memory/profile-notice';
import { generateReply, type GeneratedReply } from './generate-reply';
import { i18n, t } from '../../i18n/i18n.svelte';
import { emptyWindow, loadEarlier, loadLater, newestPage, pageAround, reread, type ListPage, type MessageWindow } from './message-paging';

type Phase = 'idle' | 'saving' | 'building' | 'streaming';

/**
 * One open conversation: its messages, the reply being written, and the send → context → stream →
 * store → remember cycle. Every user message is stored (or kept in the outbox) before it shows as sent;
 * a reply is stored when it completes, is stopped (status 'stopped') or fails part-way ('failed').
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
  #abort: AbortController | null = null;
  /** The context build in flight, so Stop reaches it too (seed 004 "用户取消"). */
  #buildId: string | null = null;
  #lastUser: Message | null = null;
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
    return (q) => connection.engine.call('message.list', { sessionId, ...q });
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
    this.phase = 'saving';
    try {
      if (!this.sessionId) {
        const created = await connection.engine.call('session.create', {});
        if (!created.ok) return this.fail(created.error);
        this.sessionId = created.data.id;
      }
      const stored = await connection.outbox.write('message.append', { sessionId: this.sessionId, role: 'user', content });
      if (!stored.ok) {
        if ('queued' in stored) {
          this.queued = content;
          return true;
        }
        return this.fail(stored.error);
      }
      this.#lastUser = stored.data.message;
      // Looking at an older stretch: the conversation's end (with this message) comes into view.
      if (this.hasLater) await this.showLatest();
      else this.messages = [...this.messages, stored.data.message];
      await this.reply(stored.data.message);
      return true;
    } finally {
      this.phase = 'idle';
    }
  }

  /** Esc / the stop button: while the context is built, the build is canceled; while streaming, the reply so far is kept, marked as stopped. */
  stop(): void {
    if (this.phase === 'building' && this.#buildId) void connection.engine.call('context.cancel', { requestId: this.#buildId });
    this.#abort?.abort();
  }

  /** Writes the last reply again (the failed or unwanted one is replaced). */
  async retry(): Promise<void> {
    if (this.busy || !this.sessionId) return;
    const lastUser = [...this.messages].reverse().find((m) => m.role === 'user') ?? this.#lastUser;
    if (!lastUser) return;
    const after = this.messages.filter((m) => m.id > lastUser.id && m.role === 'assistant');
    for (const m of after) await connection.engine.call('message.delete', { id: m.id });
    this.messages = this.messages.filter((m) => !after.includes(m));
    this.error = null;
    try {
      await this.reply(lastUser);
    } finally {
      this.phase = 'idle';
    }
  }

  async toggleStar(message: Message): Promise<void> {
    const res = await connection.engine.call('message.update', { id: message.id, isCollected: !message.isCollected });
    if (res.ok) this.messages = this.messages.map((m) => (m.id === message.id ? res.data : m));
  }

  private fail(error: IpcError | { code: string; message: string }): false {
    this.error = errorText(error);
    return false;
  }

  private async reply(user: Message): Promise<void> {
    const sessionId = user.sessionId;
    const settings = await modelSettings.ready();
    const provider = createProvider(settings);
    this.phase = 'building';
    const requestId = crypto.randomUUID();
    this.#buildId = requestId;
    const ctx = await connection.engine.call('context.build', {
      requestId,
      kind: 'chat',
      sessionId,
      message: user.content,
      excludeMessageId: user.id,
      locale: i18n.locale,
      tokenRatio: settings.tokenRatio,
      // Per model (004): the layers are cut to fit this model's context window, with room for the reply.
      budgets: budgetsForWindow(settings.contextWindow),
    });
    this.#buildId = null;
    if (!ctx.ok) {
      // Stopped while building: the message stays, there is simply no reply (and nothing to report).
      if (ctx.error.code !== 'CANCELED') this.fail(ctx.error);
      return;
    }
    const run = ctx.data;
    if (!provider.canGenerate) {
      this.noModel = true;
      await connection.engine.call('run.complete', { runId: run.runId, status: 'completed' });
      this.remember({ sessionId, userMessageId: user.id });
      return;
    }
    this.phase = 'streaming';
    this.draftReply = '';
    const abort = new AbortController();
    this.#abort = abort;
    let text = '';
    try {
      // A model that copies the prompt's headings or citations into its answer: not shown, not stored.
      const generated = await this.generate(provider, run, abort.signal, (delta) => {
        text += delta;
        this.draftReply = stripScaffolding(text);
      });
      text = stripScaffolding(generated.text);
      // "Memory used" lists what L4 placed and what the model found with search_memories.
      const memoryIds = [...run.memoryIds, ...generated.toolMemoryIds.filter((id) => !run.memoryIds.includes(id))];
      const saved = await this.saveReply({ sessionId, text, status: 'complete', memoryIds, runId: run.runId, model: settings.model });
      await connection.engine.call('run.complete', { runId: run.runId, status: 'completed', ...(saved ? { messageId: saved.id } : {}) });
      this.remember({ sessionId, userMessageId: user.id, ...(saved ? { assistantMessageId: saved.id } : {}) });
    } catch (err) {
      const code = err instanceof EngineError ? err.code : 'INTERNAL';
      const status = code === 'CANCELED' ? 'stopped' : 'failed';
      if (text.trim()) await this.saveReply({ sessionId, text: stripScaffolding(text), status, memoryIds: run.memoryIds, runId: run.runId, model: settings.model, errorCode: status === 'failed' ? code : undefined });
      await connection.engine.call('run.complete', { runId: run.runId, status: code === 'CANCELED' ? 'canceled' : code === 'TIMEOUT' ? 'timeout' : 'failed' });
      if (code !== 'CANCELED') {
        const message = err instanceof Error ? err.message : '';
        // A model failure's reason (server down, CORS, unknown model…) picks its translated advice.
        const details = err instanceof EngineError ? err.details : undefined;
        this.error = t('chat:errors.reply', { message: errorText({ code, message, details }) });
      }
    } finally {
      this.#abort = null;
      this.draftReply = '';
    }
  }

  /** Streams the reply; with agentic search on, the model may first call search_memories (000, generate-reply.ts). */
  private generate(provider: ModelProvider, run: { runId: string; messages: ChatMessage[] }, signal: AbortSignal, onDelta: (d: string) => void): Promise<GeneratedReply> {
    return generateReply({ engine: connection.engine, provider, messages: run.messages, runId: run.runId, signal, clock: systemClock, onDelta });
  }

  private async saveReply(r: {
    sessionId: string;
    text: string;
    status: 'complete' | 'stopped' | 'failed';
    memoryIds: string[];
    runId: string;
    model: string;
    errorCode?: string;
  }): Promise<Message | null> {
    const res = await connection.engine.call('message.append', {
      sessionId: r.sessionId,
      role: 'assistant',
      content: r.text,
      status: r.status,
      meta: { model: r.model, memoryIds: r.memoryIds, runId: r.runId, ...(r.errorCode ? { errorCode: r.errorCode } : {}) },
    });
    if (!res.ok) {
      this.fail(res.error);
      return null;
    }
    if (this.sessionId === r.sessionId) this.messages = [...this.messages, res.data.message];
    return res.data.message;
  }

  /**
   * Off the UI thread: extraction (model or rules) and summary upkeep; shows "Remembered: …" with undo,
   * what changed in the profile (with its own undo), and how many of the model's suggestions were unusable.
   */
  private remember(input: { sessionId: string; userMessageId: number; assistantMessageId?: number }): void {
    const jobs = connection.jobsApi;
    if (!jobs) return;
    const tellProfile = (effect: Parameters<typeof profileChangeNotice>[0]) => {
      const notice = profileChangeNotice(effect, { engine: connection.engine, push: (n) => notices.push(n) });
      if (notice) notices.push(notice, 10_000);
    };
    void jobs
      .afterReply(input, $state.snapshot(modelSettings.current))
      .then((result) => {
        if (result.invalid > 0) notices.push({ kind: 'info', text: t('chat:extractionInvalid', { count: result.invalid }) });
        tellProfile(result.profile);
        for (const item of result.remembered) {
          const id = item.memoryId;
          notices.push(
            {
              kind: 'success',
              text: t('chat:remembered', { content: item.content }),
              ...(id
                ? {
                    action: {
                      label: t('common:actions.undo'),
                      run: async () => {
                        const undone = await connection.engine.call('memory.undo', { id });
                        if (!undone.ok) return;
                        notices.push({ kind: 'info', text: t('chat:rememberedUndone') });
                        tellProfile(undone.data);
                      },
                    },
                  }
                : {}),
            },
            10_000,
          );
        }
      })
      .catch(() => {
        /* reported by the jobs worker's own status; the conversation itself is saved */
      });
  }
}
