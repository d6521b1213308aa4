import { isRequested } from '../../../domain/context';
import { classifyOutcome, type ImplicitSignal } from '../../../domain/episodes/signals';
import type { ModelSettings } from '../../../domain/llm/settings';
import type { Generation } from '../../../engine/client/generation-run';
import type { ContextBuildResult, SkillInfo } from '../../../engine/context/types';
import { PREPARE_SELECTION_MAX_CHARS, type Input } from '../../../engine/protocol/contract';
import { createQuestionPreparer } from '../../app/question-preparer';
import type { EditorState } from './editor-state.svelte';
import { applyModeOf, applyResult, revertResult, selectionForContext, splitSelection, type ApplyMode, type Selection } from './selection';
import { recordOutcome } from './skill-outcome';
import { startSkillGeneration, type SkillBuild } from './skill-generation';
import type { WriteDeps, WriteError } from './write-deps';

export type RunPhase = 'idle' | 'building' | 'streaming' | 'review';

/** 003 "用户撤销了之前接受的 AI 输出": how long after accepting the Undo stays offered. */
export const UNDO_WINDOW_MS = 30_000;
/** 003 "AI 返回 3 个候选方案": the review offers up to this many versions of one run. */
export const MAX_CANDIDATES = 3;

export interface PendingResult {
  runId: string;
  skill: SkillInfo;
  mode: ApplyMode;
  sel: Selection;
  /** Every version the model wrote for this run (003 candidates); `output` is the one shown. */
  candidates: string[];
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
 * One skill run on the selection (seed 004 "选中 → SKILL → diff → 应用"; seed 003 episodes):
 *
 *   context.build ─▶ no model? ─▶ "needs a model" + see what would be sent · turn.finish(completed)
 *        │ model ─▶ stream (Stop ─▶ turn.finish(canceled), silent)      (skill-generation.ts → generation-run.ts)
 *        ▼
 *   turn.finish(completed) ─▶ review: diff, editable output, "another version" (up to 3 candidates),
 *        a comment ─▶ accept (the shown version) | reject (all) ─▶ the text changes at once, then
 *        episode.record in the background (003 signal) ─▶ Undo within 30 s ─▶ episode.record { undo }
 */
export class SkillRunner {
  skills = $state.raw<SkillInfo[]>([]);
  phase = $state<RunPhase>('idle');
  instruction = $state('');
  /** The model's text while it streams. */
  streamed = $state('');
  result = $state.raw<PendingResult | null>(null);
  /** Which candidate the review shows. */
  current = $state(0);
  /** The output as the user edits it before accepting. */
  edited = $state('');
  /** 003 explicit feedback: what the user wants to say about the result. */
  comment = $state('');
  /** The run of the last "needs a model" notice. */
  noModelRunId = $state<string | null>(null);
  /** The last run, for "Why this?". */
  lastRunId = $state<string | null>(null);
  lastSignal = $state<ImplicitSignal | null>(null);
  /** The last outcome was recorded while learning is paused. */
  learningPaused = $state(false);
  undoable = $state.raw<AcceptedResult | null>(null);
  error = $state.raw<WriteError | null>(null);
  #deps: WriteDeps;
  #editor: EditorState;
  #projectId: () => string | null;
  /** The generation in flight: Stop reaches its build (seed 004 "用户取消") or its stream. */
  #generation: Generation<ContextBuildResult> | null = null;
  #built: ContextBuildResult | null = null;
  /** Records still on their way (the writer never waits for them; tests and page exits can). */
  #pending = new Set<Promise<void>>();
  /** Embeds what a run would recall by while the selection and instruction rest (issue 18). */
  #preparer: ReturnType<typeof createQuestionPreparer>;

  constructor(deps: WriteDeps, host: { editor: EditorState; projectId: () => string | null }) {
    this.#deps = deps;
    this.#editor = host.editor;
    this.#projectId = host.projectId;
    this.#preparer = createQuestionPreparer({ engine: () => deps.engine, embeddings: () => deps.embeddings?.() ?? null, as: 'message' });
  }

  get busy(): boolean {
    return this.phase !== 'idle';
  }

  /** The skills the toolbar offers: everything but chat. */
  get writingSkills(): SkillInfo[] {
    return this.skills.filter((s) => s.id !== 'chat');
  }

  get canAddCandidate(): boolean {
    return this.phase === 'review' && this.result !== null && this.result.candidates.length < MAX_CANDIDATES && this.#built !== null;
  }

  async loadSkills(): Promise<void> {
    const res = await this.#deps.engine.call('skill.list', {});
    if (res.ok) this.skills = res.data;
    else this.error = res.error;
  }

  canUndo(now = this.#deps.now()): boolean {
    return this.undoable !== null && now - this.undoable.acceptedAt <= UNDO_WINDOW_MS;
  }

  /** Resolves when every outcome sent so far has been recorded (or has failed and been shown). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /**
   * The selection or the instruction changed (issue 18): once they rest, what each skill that recalls memories would
   * recall by if it ran now — its message (the instruction, else its default) with the selected text, as
   * context.build joins them — is embedded ahead, so the run finds the question's vector cached instead of waiting
   * for the embedding endpoint. Only with an embedding model (and the engine sends it only to one on this device).
   */
  prepare(opts: { start: number; end: number; defaultMessage: (skillId: string) => string }): void {
    if (this.busy || !this.#editor.documentId) return this.#preparer.cancel();
    const sel = splitSelection(this.#editor.content, opts.start, opts.end);
    const selectionText = selectionForContext(sel).text.slice(0, PREPARE_SELECTION_MAX_CHARS);
    const recalling = this.writingSkills.filter((s) => recallsMemories(s) && !(s.needsSelection && sel.text.trim() === ''));
    this.#preparer.prepare(recalling.map((s) => ({ text: this.#message(opts.defaultMessage(s.id)), selectionText })));
  }

  /** Runs a skill on [start, end) of the open document; `message` is the instruction or the skill's default. */
  async run(opts: { skillId: string; start: number; end: number; defaultMessage: string }): Promise<void> {
    const documentId = this.#editor.documentId;
    const skill = this.skills.find((s) => s.id === opts.skillId);
    if (this.busy || !documentId || !skill) return;
    const sel = splitSelection(this.#editor.content, opts.start, opts.end);
    if (skill.needsSelection && sel.text.trim() === '') return;
    // The run embeds its own question now: a preparation still waiting for its pause would ask a second time.
    this.#preparer.cancel();
    this.#reset();
    this.phase = 'building';
    const settings = await this.#deps.settings();
    const projectId = this.#projectId();
    const version = await this.#generate(settings, {
      build: {
        skillId: skill.id,
        documentId,
        ...(projectId ? { projectId } : {}),
        message: this.#message(opts.defaultMessage),
        typed: this.instruction.trim() !== '',
        selection: selectionForContext(sel),
      },
    });
    if (version === null) return void (this.phase = 'idle');
    const { runId, text } = version;
    this.result = { runId, skill, mode: applyModeOf(skill), sel, candidates: [text], output: text };
    this.current = 0;
    this.edited = text;
    this.phase = 'review';
  }

  /** 003 candidates: the model writes another version of the same run; the review shows it. */
  async another(): Promise<void> {
    const r = this.result;
    const built = this.#built;
    if (!r || !built || !this.canAddCandidate) return;
    const settings = await this.#deps.settings();
    this.phase = 'streaming';
    const version = await this.#generate(settings, { again: built });
    this.phase = 'review';
    if (version === null) return;
    const { text } = version;
    const candidates = [...r.candidates, text];
    this.result = { ...r, candidates, output: text };
    this.current = candidates.length - 1;
    this.edited = text;
  }

  /** Shows another candidate (an edit of the one shown is dropped, as a tab switch would). */
  show(index: number): void {
    const r = this.result;
    const text = r?.candidates[index];
    if (!r || text === undefined || this.phase !== 'review') return;
    this.current = index;
    this.result = { ...r, output: text };
    this.edited = text;
  }

  /** The Stop button: a build in progress is canceled (no run is stored); a stream ends as canceled; nothing is shown. */
  stop(): void {
    this.#generation?.stop();
  }

  async accept(): Promise<void> {
    const r = this.result;
    if (!r || this.phase !== 'review') return;
    const final = this.edited;
    const applied = applyResult({ content: this.#editor.content, sel: r.sel, final, mode: r.mode });
    if (!applied) return void (this.error = { code: 'SELECTION_CHANGED', message: '' });
    if (r.mode !== 'report') this.#editor.input(applied.content);
    const comment = this.comment;
    this.#finishReview();
    if (r.mode !== 'report') {
      this.undoable = { runId: r.runId, mode: r.mode, original: r.sel.text, final, applied, acceptedAt: this.#deps.now() };
    }
    this.#record(
      { runId: r.runId, candidates: r.candidates, selectedIndex: this.current, finalText: final, ...explicit(comment), sampleRefs: this.#refs(applied.from, applied.to) },
      classifyOutcome({ candidates: r.candidates, selectedIndex: this.current, finalText: final }).signal,
    );
  }

  async reject(): Promise<void> {
    const r = this.result;
    if (!r || this.phase !== 'review') return;
    const comment = this.comment;
    this.#finishReview();
    this.#record({ runId: r.runId, candidates: r.candidates, selectedIndex: -1, ...explicit(comment), sampleRefs: this.#refs(r.sel.from, r.sel.to) }, 'strong-negative');
  }

  /** 003 "延迟负反馈": the original text comes back; the run's episode ends negative (its acceptance stays on record). */
  async undo(): Promise<void> {
    const u = this.undoable;
    if (!u || !this.canUndo()) return;
    const restored = revertResult({ content: this.#editor.content, applied: u.applied, final: u.final, original: u.original, mode: u.mode });
    this.undoable = null;
    if (restored === null) return void (this.error = { code: 'EDITED_SINCE', message: '' });
    this.#editor.input(restored);
    const to = u.mode === 'insert-after' ? u.applied.from : u.applied.from + u.original.length;
    // The accept's record goes first (calls reach the engine in order), so the undo finds its episode.
    this.#record({ runId: u.runId, undo: true, sampleRefs: this.#refs(u.applied.from, to) }, 'delayed-negative');
  }

  /** 003 "会话结束时工作记忆归档": the chapter's writing session ends (switching chapter or project, leaving). */
  endSession(documentId: string | null = this.#editor.documentId): void {
    if (!documentId) return;
    this.undoable = null;
    void this.#deps.engine.call('writingMemory.end', { documentId });
  }

  /** A run's message: the instruction typed, else the skill's default. */
  #message(defaultMessage: string): string {
    return this.instruction.trim() || defaultMessage;
  }

  #refs(from: number, to: number): { documentId: string; from: number; to: number }[] {
    const documentId = this.#editor.documentId;
    return documentId ? [{ documentId, from, to }] : [];
  }

  #record(input: Input<'episode.record'>, signal: ImplicitSignal): void {
    this.lastSignal = signal;
    const p = recordOutcome({ engine: this.#deps.engine, input, kickDistill: this.#deps.kickDistill }).then((out) => {
      if (!out.ok) this.error = out.error;
      else this.learningPaused = out.outcome.paused;
    });
    const tracked = p.finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }

  /**
   * One version through the generation module (engine/client/generation-run.ts, as a chat turn): the build, the
   * stream and the run's finish, or — `again` — only the stream of a further candidate of a finished run. The
   * version and its run, or null when there is none to review (no model, stopped, failed, empty; the page is told why).
   */
  async #generate(settings: ModelSettings, what: { build: SkillBuild } | { again: ContextBuildResult }): Promise<{ runId: string; text: string } | null> {
    this.streamed = '';
    const generation = startSkillGeneration({
      deps: this.#deps,
      provider: this.#deps.provider(settings),
      settings,
      ...what,
      onPrepared: (built) => (this.lastRunId = built.runId),
      onPhase: (phase) => {
        if (phase === 'streaming') this.phase = 'streaming';
      },
      onText: (text) => (this.streamed = text),
    });
    this.#generation = generation;
    const out = await generation.done;
    this.#generation = null;
    this.streamed = '';
    if (out.kind === 'unprepared') {
      if (out.error.code !== 'CANCELED') this.error = out.error;
      return null;
    }
    if (out.finishError && !this.error) this.error = out.finishError;
    if (out.kind === 'no-model') {
      // Nothing to generate, but the run is real: the inspector shows what would have been sent.
      if (!('again' in what)) this.noModelRunId = out.runId;
      return null;
    }
    if (out.kind === 'stopped') return null;
    if (out.kind === 'failed') {
      this.error = out.error ?? { code: 'INTERNAL', message: '' };
      return null;
    }
    if (out.text.trim() === '') {
      this.error = { code: 'EMPTY_OUTPUT', message: '' };
      return null;
    }
    if (!('again' in what)) this.#built = out.prepared;
    return { runId: out.runId, text: out.text };
  }

  #finishReview(): void {
    this.phase = 'idle';
    this.result = null;
    this.comment = '';
    this.#built = null;
  }

  #reset(): void {
    this.error = null;
    this.noModelRunId = null;
    this.learningPaused = false;
    this.lastSignal = null;
    this.undoable = null;
    this.result = null;
    this.comment = '';
    this.current = 0;
    this.#built = null;
  }
}

/** Whether a skill's context build recalls memories (the only lane of a skill run that embeds its question). */
function recallsMemories(skill: SkillInfo): boolean {
  const memories = skill.contextRules.memories;
  return isRequested(skill.contextRules, 'memories') && !(typeof memories === 'object' && memories.topN === 0);
}

function explicit(comment: string): { explicit?: string } {
  const c = comment.trim();
  return c ? { explicit: c.slice(0, 2000) } : {};
}
