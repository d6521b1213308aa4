import { stripScaffolding } from '../../../domain/context/reply-clean';
import { budgetsForWindow } from '../../../domain/context/window-budgets';
import { EngineError } from '../../../domain/errors';
import type { ModelProvider } from '../../../domain/llm/types';
import type { ContextBuildResult, SkillInfo } from '../../../engine/context/types';
import type { EditorState } from './editor-state.svelte';
import { classifyFeedback, type ImplicitSignal, type UserOutcome } from './feedback';
import { applyModeOf, applyResult, revertResult, selectionForContext, splitSelection, type ApplyMode, type Selection } from './selection';
import type { WriteDeps, WriteError } from './write-deps';
import { recordFeedback, type Learned } from './skill-feedback';

export type RunPhase = 'idle' | 'building' | 'streaming' | 'review';

/** 003 "用户撤销了之前接受的 AI 输出": how long after accepting the Undo stays offered. */
export const UNDO_WINDOW_MS = 30_000;

export interface PendingResult {
  runId: string;
  skill: SkillInfo;
  mode: ApplyMode;
  sel: Selection;
  output: string;
}

export interface AcceptedResult {
  runId: string;
  mode: ApplyMode;
  original: string;
  final: string;
  applied: { from: number; to: number };
  acceptedAt: number;
}

/**
 * One skill run on the selection (seed 004 "选中 → SKILL → diff → 应用"):
 *
 *   context.build ─▶ no model? ─▶ "needs a model" + see what would be sent · run.complete(completed)
 *        │ model ─▶ stream (Stop ─▶ run.complete(canceled), silent)
 *        ▼
 *   run.complete(completed) ─▶ review: diff, editable output ─▶ accept | edit + accept | reject
 *        ─▶ feedback.record (003 implicit signal) ─▶ Undo within 30 s ─▶ feedback.record(reject)
 */
export class SkillRunner {
  skills = $state.raw<SkillInfo[]>([]);
  phase = $state<RunPhase>('idle');
  instruction = $state('');
  /** The model's text while it streams. */
  streamed = $state('');
  result = $state.raw<PendingResult | null>(null);
  /** The output as the user edits it before accepting. */
  edited = $state('');
  /** The run of the last "needs a model" notice. */
  noModelRunId = $state<string | null>(null);
  /** The last run, for "Why this?". */
  lastRunId = $state<string | null>(null);
  lastSignal = $state<ImplicitSignal | null>(null);
  learned = $state.raw<Learned[]>([]);
  /** The last feedback was recorded while learning is switched off in the settings. */
  learningPaused = $state(false);
  undoable = $state.raw<AcceptedResult | null>(null);
  error = $state.raw<WriteError | null>(null);
  #deps: WriteDeps;
  #editor: EditorState;
  #projectId: () => string | null;
  #abort: AbortController | null = null;
  /** The context build in flight, so Stop reaches it too (seed 004 "用户取消"). */
  #buildId: string | null = null;

  constructor(deps: WriteDeps, host: { editor: EditorState; projectId: () => string | null }) {
    this.#deps = deps;
    this.#editor = host.editor;
    this.#projectId = host.projectId;
  }

  get busy(): boolean {
    return this.phase !== 'idle';
  }

  /** The skills the toolbar offers: everything but chat. */
  get writingSkills(): SkillInfo[] {
    return this.skills.filter((s) => s.id !== 'chat');
  }

  async loadSkills(): Promise<void> {
    const res = await this.#deps.engine.call('skill.list', {});
    if (res.ok) this.skills = res.data;
    else this.error = res.error;
  }

  canUndo(now = this.#deps.now()): boolean {
    return this.undoable !== null && now - this.undoable.acceptedAt <= UNDO_WINDOW_MS;
  }

  /** Runs a skill on [start, end) of the open document; `message` is the instruction or the skill's default. */
  async run(opts: { skillId: string; start: number; end: number; defaultMessage: string }): Promise<void> {
    const documentId = this.#editor.documentId;
    const skill = this.skills.find((s) => s.id === opts.skillId);
    if (this.busy || !documentId || !skill) return;
    const sel = splitSelection(this.#editor.content, opts.start, opts.end);
    if (skill.needsSelection && sel.text.trim() === '') return;
    this.#reset();
    this.phase = 'building';
    const settings = await this.#deps.settings();
    const projectId = this.#projectId();
    const requestId = crypto.randomUUID();
    this.#buildId = requestId;
    const built = await this.#deps.engine.call('context.build', {
      requestId,
      kind: 'skill',
      skillId: skill.id,
      documentId,
      ...(projectId ? { projectId } : {}),
      message: this.instruction.trim() || opts.defaultMessage,
      selection: selectionForContext(sel),
      locale: this.#deps.locale(),
      tokenRatio: settings.tokenRatio,
      // Per model (004): the layers are cut to fit this model's context window, with room for the reply.
      budgets: budgetsForWindow(settings.contextWindow),
    });
    this.#buildId = null;
    if (!built.ok) {
      this.phase = 'idle';
      if (built.error.code !== 'CANCELED') this.error = built.error;
      return;
    }
    this.lastRunId = built.data.runId;
    const provider = this.#deps.provider(settings);
    if (!provider.canGenerate) {
      // Nothing to generate, but the run is real: the inspector shows what would have been sent.
      await this.#complete(built.data.runId, 'completed');
      this.noModelRunId = built.data.runId;
      this.phase = 'idle';
      return;
    }
    await this.#generate({ provider, built: built.data, skill, sel });
  }

  /** The Stop button: a build in progress is canceled (no run is stored); a stream ends as canceled; nothing is shown. */
  stop(): void {
    if (this.phase === 'building' && this.#buildId) void this.#deps.engine.call('context.cancel', { requestId: this.#buildId });
    this.#abort?.abort();
  }

  async accept(): Promise<void> {
    const r = this.result;
    if (!r || this.phase !== 'review') return;
    const final = this.edited;
    const applied = applyResult({ content: this.#editor.content, sel: r.sel, final, mode: r.mode });
    if (!applied) return void (this.error = { code: 'SELECTION_CHANGED', message: '' });
    if (r.mode !== 'report') this.#editor.input(applied.content);
    this.#finishReview();
    const outcome: UserOutcome = { kind: 'kept', output: r.output, final };
    await this.#feedback(r, outcome, { documentId: this.#editor.documentId, from: applied.from, to: applied.to }, { outputText: r.output, finalText: final });
    if (r.mode !== 'report') {
      this.undoable = { runId: r.runId, mode: r.mode, original: r.sel.text, final, applied, acceptedAt: this.#deps.now() };
    }
  }

  async reject(): Promise<void> {
    const r = this.result;
    if (!r || this.phase !== 'review') return;
    this.#finishReview();
    await this.#feedback(r, { kind: 'rejected' }, { documentId: this.#editor.documentId, from: r.sel.from, to: r.sel.to }, { outputText: r.output });
  }

  /** 003 "延迟负反馈": the original text comes back and the run gets a reject. */
  async undo(): Promise<void> {
    const u = this.undoable;
    if (!u || !this.canUndo()) return;
    const restored = revertResult({ content: this.#editor.content, applied: u.applied, final: u.final, original: u.original, mode: u.mode });
    this.undoable = null;
    if (restored === null) return void (this.error = { code: 'EDITED_SINCE', message: '' });
    this.#editor.input(restored);
    const to = u.mode === 'insert-after' ? u.applied.from : u.applied.from + u.original.length;
    await this.#feedback({ runId: u.runId }, { kind: 'undone' }, { documentId: this.#editor.documentId, from: u.applied.from, to }, { outputText: u.final });
  }

  async #generate(opts: { provider: ModelProvider; built: ContextBuildResult; skill: SkillInfo; sel: Selection }): Promise<void> {
    const { provider, built, skill, sel } = opts;
    this.phase = 'streaming';
    this.streamed = '';
    const abort = new AbortController();
    this.#abort = abort;
    try {
      let text = '';
      for await (const ev of provider.chatStream({ messages: built.messages, signal: abort.signal })) {
        if (ev.type !== 'delta') continue;
        text += ev.text;
        this.streamed = stripScaffolding(text);
      }
      // Headings or citations a model copied from the prompt are no part of the text (issue 15).
      text = stripScaffolding(text);
      await this.#complete(built.runId, 'completed');
      if (text.trim() === '') {
        this.phase = 'idle';
        this.error = { code: 'EMPTY_OUTPUT', message: '' };
        return;
      }
      this.result = { runId: built.runId, skill, mode: applyModeOf(skill), sel, output: text };
      this.edited = text;
      this.phase = 'review';
    } catch (err) {
      const code = err instanceof EngineError ? err.code : 'INTERNAL';
      await this.#complete(built.runId, code === 'CANCELED' ? 'canceled' : code === 'TIMEOUT' ? 'timeout' : 'failed');
      this.phase = 'idle';
      if (code !== 'CANCELED') this.error = { code, message: err instanceof Error ? err.message : '' };
    } finally {
      this.#abort = null;
      this.streamed = '';
    }
  }

  async #complete(runId: string, status: 'completed' | 'canceled' | 'failed' | 'timeout'): Promise<void> {
    const res = await this.#deps.engine.call('run.complete', { runId, status });
    if (!res.ok && !this.error) this.error = res.error;
  }

  async #feedback(
    r: { runId: string },
    outcome: UserOutcome,
    ref: { documentId: string | null; from: number; to: number },
    texts: { outputText?: string; finalText?: string },
  ): Promise<void> {
    const judged = classifyFeedback(outcome);
    this.lastSignal = judged.signal;
    const out = await recordFeedback({
      engine: this.#deps.engine,
      projectId: this.#projectId(),
      input: {
        runId: r.runId,
        action: judged.action,
        sampleRefs: ref.documentId ? [{ documentId: ref.documentId, from: ref.from, to: ref.to }] : [],
        ...(judged.editDistance !== null ? { editDistance: judged.editDistance } : {}),
        ...texts,
      },
    });
    if (!out.ok) this.error = out.error;
    else {
      this.learned = out.learned;
      this.learningPaused = out.paused;
    }
  }

  #finishReview(): void {
    this.phase = 'idle';
    this.result = null;
  }

  #reset(): void {
    this.error = null;
    this.noModelRunId = null;
    this.learned = [];
    this.learningPaused = false;
    this.lastSignal = null;
    this.undoable = null;
    this.result = null;
  }
}
