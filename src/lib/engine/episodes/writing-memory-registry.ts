/**
 * The Write page's working memory (seed 003 Layer 1) in the DB worker, one per chapter being edited
 * (ARCHITECTURE §10: working memory lives in the worker, is rebuilt on demand and archived when it ends).
 *
 *   context.build (skill run on a chapter) ─▶ onBuild: focus, task, intent, chapter context, signals ─▶ L5
 *   episode.record                         ─▶ onOutcome: the output and what became of it
 *   end: project/chapter switch (writingMemory.end), 30 idle minutes (sweep), a tab gone (sweep finds
 *        its runs unarchived) ─▶ signals past their threshold become `session` episodes, the rest are
 *        dropped, the memory is cleared
 *
 * Nothing of the memory itself is written to disk (003 "不持久化"). What it is rebuilt from after a
 * hand-over — and what decides which signals to archive — are the runs' learning rows (run_learning),
 * written with each run anyway; `archived` marks the ones whose session has ended.
 */
import type { Clock } from '../../domain/clock';
import type { SceneType } from '../../domain/episodes/scene-type';
import { excerpt } from '../../domain/episodes/summary';
import { importanceOf, valenceOf } from '../../domain/episodes/signals';
import { claimsOfText } from '../../domain/semantic/claims';
import { SCENE_LABEL, SKILL_LABEL } from '../../domain/semantic/templates';
import type { TokenCounter } from '../../domain/text/tokens';
import { extractKeywords } from '../../domain/text/keywords';
import {
  ARCHIVE_MIN_USES,
  chapterContext,
  importance,
  noteSignal,
  putEntry,
  setFocus,
  signalsToArchive,
  startWritingMemory,
  totalTokens,
  WRITING_MEMORY_IDLE_MS,
  type PreferenceSignal,
  type WritingMemory,
} from '../../domain/writing/working-memory';
import type { EpisodeRepo } from '../store/episode-repo';
import type { LearningRepo, RunLearningRow } from '../store/learning-repo';
import type { WritingMemoryView, WritingSessionEnd } from './types';

const PREVIEW_CHARS = 60;
const skillName = (id: string) => SKILL_LABEL[id]?.zh ?? id;

export interface BuildNote {
  documentId: string;
  projectId: string | null;
  chapter: { title: string; content: string };
  focusOffset: number;
  passage: string;
  sceneType: SceneType;
  skillId: string;
  message: string;
  /** The user typed the instruction (not the skill's default). */
  typed: boolean;
}

/** The signals of a session, counted from its runs' rows (the durable record of what happened). */
function signalsOf(rows: readonly RunLearningRow[], now: number): PreferenceSignal[] {
  let wm = startWritingMemory({ documentId: '', projectId: null, now });
  for (const r of rows) {
    wm = noteSignal(wm, { kind: 'scene-skill', sceneType: r.sceneType, skillId: r.skillId, text: null }, now);
    if (r.intent) wm = noteSignal(wm, { kind: 'instruction', sceneType: r.sceneType, skillId: r.skillId, text: r.intent }, now);
  }
  return wm.signals;
}

export function createWritingMemoryRegistry(deps: { clock: Clock; counter: TokenCounter; learning: LearningRepo; episodes: EpisodeRepo }) {
  const live = new Map<string, WritingMemory>();
  const { counter } = deps;

  /** A session's memory from its runs' rows, after a hand-over or a reload. */
  function rebuild(documentId: string, projectId: string | null, rows: readonly RunLearningRow[]): WritingMemory {
    const now = deps.clock.now();
    let wm = startWritingMemory({ documentId, projectId, now });
    for (const r of rows) {
      if (r.intent) wm = putEntry(wm, { id: `intent:${r.intent}`, kind: 'intent', text: r.intent }, { counter, now });
      const ep = deps.episodes.byRun(r.runId);
      const kept = ep ? (ep.finalText ?? ep.candidates[ep.selectedIndex] ?? '') : '';
      if (ep && kept) wm = putEntry(wm, { id: `output:${r.runId}`, kind: 'output', text: `${skillName(r.skillId)} · ${ep.implicit}: ${excerpt(kept, 200)}` }, { counter, now });
    }
    return { ...wm, signals: signalsOf(rows, now) };
  }

  /** Ends a session: its signals past their threshold become episodes, the rest are dropped. */
  function end(documentId: string): WritingSessionEnd {
    const rows = deps.learning.runs.open(documentId);
    live.delete(documentId);
    if (rows.length === 0) return { ended: [], archived: [], dropped: 0 };
    const now = deps.clock.now();
    const signals = signalsOf(rows, now);
    const keep = signals.filter((s) => s.uses >= ARCHIVE_MIN_USES[s.kind]);
    const projectId = rows.at(-1)?.projectId ?? null;
    const archived = keep.map((s) => {
      const skill = SKILL_LABEL[s.skillId] ?? { zh: s.skillId, en: s.skillId };
      const scene = SCENE_LABEL[s.sceneType];
      const what =
        s.kind === 'scene-skill'
          ? `会话中 ${s.uses} 次对${scene.zh}使用「${skill.zh}」· ${skill.en} used ${s.uses}× on ${scene.en} in one session`
          : `会话中 ${s.uses} 次要求「${excerpt(s.text ?? '', 80)}」· asked ${s.uses}× in one session`;
      return deps.episodes.insert({
        kind: 'session',
        runId: null,
        skillId: s.skillId,
        projectId,
        documentId,
        sceneType: s.sceneType,
        inputSummary: what,
        candidates: [],
        selectedIndex: 0,
        finalText: null,
        explicit: s.kind === 'instruction' ? s.text : null,
        implicit: 'scene-skill-preference',
        valence: valenceOf('scene-skill-preference', s.uses),
        editDistance: null,
        features: { candidates: [], ...(s.text ? { stated: claimsOfText(s.text).map((c) => ({ dimension: c.dimension, pole: c.pole })) } : {}) },
        uses: s.uses,
        importance: importanceOf('scene-skill-preference', { uses: s.uses }),
      }).id;
    });
    deps.learning.runs.markArchived(rows.map((r) => r.runId));
    return { ended: [documentId], archived, dropped: signals.length - keep.length };
  }

  function session(note: Pick<BuildNote, 'documentId' | 'projectId'>): WritingMemory {
    const now = deps.clock.now();
    const wm = live.get(note.documentId);
    if (wm && now - wm.updatedAt <= WRITING_MEMORY_IDLE_MS) return wm;
    const rows = deps.learning.runs.open(note.documentId);
    const last = rows.at(-1);
    // The previous session ended by idling (or its tab went away): archive it, start a new one.
    if (wm || (last && now - last.createdAt > WRITING_MEMORY_IDLE_MS)) {
      end(note.documentId);
      return startWritingMemory({ documentId: note.documentId, projectId: note.projectId, now });
    }
    return rows.length > 0 ? rebuild(note.documentId, note.projectId, rows) : startWritingMemory({ documentId: note.documentId, projectId: note.projectId, now });
  }

  function view(wm: WritingMemory): WritingMemoryView {
    const now = deps.clock.now();
    const focus = new Set(extractKeywords(wm.focus.text, { max: 40 }).map((k) => k.toLowerCase()));
    return {
      documentId: wm.documentId,
      projectId: wm.projectId,
      sceneType: wm.focus.sceneType,
      budget: wm.budget,
      tokens: totalTokens(wm),
      entries: wm.entries.map((e) => ({
        id: e.id.startsWith('intent:') ? `intent:${e.createdAt}` : e.id,
        kind: e.kind,
        tokens: e.tokens,
        importance: importance(e, focus, now),
        pinned: e.pinned,
        uses: e.uses,
        preview: excerpt(e.text, PREVIEW_CHARS),
      })),
      evicted: wm.evicted.map((x) => (x.id.startsWith('intent:') ? { ...x, id: `intent:${x.at}` } : x)),
      signals: wm.signals.map((s) => ({ kind: s.kind, sceneType: s.sceneType, skillId: s.skillId, uses: s.uses, archivable: signalsToArchive({ ...wm, signals: [s] }).length > 0 })),
      startedAt: wm.startedAt,
      updatedAt: wm.updatedAt,
    };
  }

  return {
    /** A skill run is being built on a chapter: the memory takes in its focus, task, intent and chapter. */
    onBuild(note: BuildNote): { wm: WritingMemory; view: WritingMemoryView } {
      const now = deps.clock.now();
      let wm = setFocus(session(note), { text: note.passage, sceneType: note.sceneType });
      wm = putEntry(wm, { id: 'task', kind: 'task', text: `${skillName(note.skillId)}：${excerpt(note.message, 120)} · 选区 selection: ${excerpt(note.passage, 80)}`, pinned: true }, { counter, now });
      if (note.typed) wm = putEntry(wm, { id: `intent:${note.message}`, kind: 'intent', text: excerpt(note.message, 400) }, { counter, now });
      wm = putEntry(wm, { id: 'chapter', kind: 'chapter', text: chapterContext({ title: note.chapter.title, content: note.chapter.content, focusOffset: note.focusOffset }) }, { counter, now });
      wm = noteSignal(wm, { kind: 'scene-skill', sceneType: note.sceneType, skillId: note.skillId, text: null }, now);
      if (note.typed) wm = noteSignal(wm, { kind: 'instruction', sceneType: note.sceneType, skillId: note.skillId, text: note.message }, now);
      live.set(note.documentId, wm);
      return { wm, view: view(wm) };
    },
    /** What became of a run's output (003 "AI 交互上下文"). */
    onOutcome(o: { documentId: string; runId: string; skillId: string; signal: string; kept: string }): void {
      const wm = live.get(o.documentId);
      if (!wm || o.kept.trim() === '') return;
      live.set(o.documentId, putEntry(wm, { id: `output:${o.runId}`, kind: 'output', text: `${skillName(o.skillId)} · ${o.signal}: ${excerpt(o.kept, 200)}` }, { counter, now: deps.clock.now() }));
    },
    get(documentId: string): WritingMemoryView | undefined {
      const wm = live.get(documentId);
      return wm ? view(wm) : undefined;
    },
    end,
    /** 30 idle minutes end a session, also one whose tab is gone (its runs are still unarchived). */
    sweep(): WritingSessionEnd {
      const now = deps.clock.now();
      const docs = new Set([...live.values()].filter((w) => now - w.updatedAt > WRITING_MEMORY_IDLE_MS).map((w) => w.documentId));
      for (const d of deps.learning.runs.staleDocuments(now - WRITING_MEMORY_IDLE_MS)) docs.add(d);
      const out: WritingSessionEnd = { ended: [], archived: [], dropped: 0 };
      for (const d of docs) {
        const r = end(d);
        out.ended.push(...r.ended);
        out.archived.push(...r.archived);
        out.dropped += r.dropped;
      }
      return out;
    },
    /** memory.clearAll: no chapter keeps a working memory. */
    forgetAll(): number {
      const n = live.size;
      live.clear();
      return n;
    },
    forgetProject(projectId: string): number {
      let n = 0;
      for (const [id, wm] of live) if (wm.projectId === projectId) (live.delete(id), n++);
      return n;
    },
  };
}

export type WritingMemoryRegistry = ReturnType<typeof createWritingMemoryRegistry>;
