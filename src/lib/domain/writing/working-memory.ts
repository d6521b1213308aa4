/**
 * The Write page's working memory (seed 003 "Layer 1：工作记忆"): the live context of one editing session —
 * the current task, the intent stack, recent skill outputs, the chapter around the focus and temporary
 * preference signals — within 8K tokens, never written to disk (it lives in the DB worker, ARCHITECTURE §10),
 * fed to the Immediate layer (L5).
 *
 *   importance = 0.5 · relevance to the current focus   (shared keywords, 0..1)
 *              + 0.3 · recency                          (e^(−age / 15 min) since last touched)
 *              + 0.2 · interactions                     (uses beyond the first, 3 or more = 1)
 *   the task is pinned (importance 1)
 *
 * 003 "工作记忆容量超限时的淘汰": every write checks the budget; over it, entries leave from the lowest
 * importance up (ties: the least recently touched), so an old intent about something else goes first.
 * 003 "会话结束时工作记忆归档": at the end, signals that reached their threshold become episodes, the rest
 * are dropped, and the memory is cleared.
 */
import { extractKeywords } from '../text/keywords';
import { splitSentences } from '../text/sentences';
import type { TokenCounter } from '../text/tokens';
import type { SceneType } from '../episodes/scene-type';

/** 003: "上限 8K tokens". */
export const WRITING_MEMORY_BUDGET = 8192;
/** A session with no activity for this long ends (archived by the jobs worker's sweep). */
export const WRITING_MEMORY_IDLE_MS = 30 * 60_000;
const RECENCY_MS = 15 * 60_000;
/** Signals that reach these counts are archived as episodes at the end of a session. */
export const ARCHIVE_MIN_USES = { 'scene-skill': 3, instruction: 2 } as const;
const EVICTED_KEPT = 20;

export type EntryKind = 'task' | 'intent' | 'output' | 'chapter';

export interface WmEntry {
  id: string;
  kind: EntryKind;
  text: string;
  tokens: number;
  createdAt: number;
  touchedAt: number;
  uses: number;
  pinned: boolean;
}

/** A temporary preference signal (003 "临时偏好信号"): counted in the session, archived past a threshold. */
export interface PreferenceSignal {
  kind: 'scene-skill' | 'instruction';
  sceneType: SceneType;
  skillId: string;
  /** The instruction as typed (instruction signals). */
  text: string | null;
  uses: number;
  lastAt: number;
}

export interface EvictedEntry {
  id: string;
  kind: EntryKind;
  tokens: number;
  importance: number;
  at: number;
}

export interface WritingMemory {
  documentId: string;
  projectId: string | null;
  focus: { text: string; sceneType: SceneType };
  entries: WmEntry[];
  signals: PreferenceSignal[];
  evicted: EvictedEntry[];
  budget: number;
  startedAt: number;
  updatedAt: number;
}

export function startWritingMemory(opts: { documentId: string; projectId: string | null; now: number; budget?: number }): WritingMemory {
  return {
    documentId: opts.documentId,
    projectId: opts.projectId,
    focus: { text: '', sceneType: 'narration' },
    entries: [],
    signals: [],
    evicted: [],
    budget: opts.budget ?? WRITING_MEMORY_BUDGET,
    startedAt: opts.now,
    updatedAt: opts.now,
  };
}

export function totalTokens(wm: Pick<WritingMemory, 'entries'>): number {
  return wm.entries.reduce((n, e) => n + e.tokens, 0);
}

function keywordSet(text: string): Set<string> {
  return new Set(extractKeywords(text, { max: 40 }).map((k) => k.toLowerCase()));
}

export function importance(e: WmEntry, focus: ReadonlySet<string>, now: number): number {
  if (e.pinned) return 1;
  const own = keywordSet(e.text);
  let shared = 0;
  for (const k of own) if (focus.has(k)) shared++;
  const relevance = own.size === 0 ? 0 : Math.min(1, shared / Math.min(own.size, 8));
  const recency = Math.exp(-Math.max(0, now - e.touchedAt) / RECENCY_MS);
  const interactions = Math.min(1, (e.uses - 1) / 3);
  return Math.round((0.5 * relevance + 0.3 * recency + 0.2 * interactions) * 1000) / 1000;
}

/** Evicts from the lowest importance up until the entries fit the budget. */
function fit(wm: WritingMemory, now: number): WritingMemory {
  let total = totalTokens(wm);
  if (total <= wm.budget) return wm;
  const focus = keywordSet(wm.focus.text);
  const ranked = wm.entries
    .filter((e) => !e.pinned)
    .map((e) => ({ e, score: importance(e, focus, now) }))
    .sort((a, b) => a.score - b.score || a.e.touchedAt - b.e.touchedAt || (a.e.id < b.e.id ? -1 : 1));
  const gone = new Set<string>();
  const evicted: EvictedEntry[] = [];
  for (const { e, score } of ranked) {
    if (total <= wm.budget) break;
    gone.add(e.id);
    total -= e.tokens;
    evicted.push({ id: e.id, kind: e.kind, tokens: e.tokens, importance: score, at: now });
  }
  return { ...wm, entries: wm.entries.filter((e) => !gone.has(e.id)), evicted: [...wm.evicted, ...evicted].slice(-EVICTED_KEPT) };
}

/**
 * Adds or refreshes an entry (same id: its text is replaced, it is touched and counted again), then keeps
 * the budget. One entry larger than the whole budget is cut to it first.
 */
export function putEntry(
  wm: WritingMemory,
  entry: { id: string; kind: EntryKind; text: string; pinned?: boolean },
  opts: { counter: TokenCounter; now: number },
): WritingMemory {
  const text = opts.counter.count(entry.text) > wm.budget ? opts.counter.truncate(entry.text, wm.budget) : entry.text;
  const tokens = opts.counter.count(text);
  const prior = wm.entries.find((e) => e.id === entry.id);
  const next: WmEntry = {
    id: entry.id,
    kind: entry.kind,
    text,
    tokens,
    createdAt: prior?.createdAt ?? opts.now,
    touchedAt: opts.now,
    uses: (prior?.uses ?? 0) + 1,
    pinned: entry.pinned ?? false,
  };
  // Only one task at a time: the previous one stops being pinned and ages like the rest.
  const entries = wm.entries
    .filter((e) => e.id !== entry.id)
    .map((e) => (next.pinned && e.pinned ? { ...e, pinned: false } : e));
  return fit({ ...wm, entries: [...entries, next], updatedAt: opts.now }, opts.now);
}

export function setFocus(wm: WritingMemory, focus: { text: string; sceneType: SceneType }): WritingMemory {
  return { ...wm, focus };
}

/** Counts a temporary preference signal (a skill used on a scene type; an instruction typed again). */
export function noteSignal(wm: WritingMemory, s: Omit<PreferenceSignal, 'uses' | 'lastAt'>, now: number): WritingMemory {
  const same = (x: PreferenceSignal) => x.kind === s.kind && x.sceneType === s.sceneType && x.skillId === s.skillId && x.text === s.text;
  const prior = wm.signals.find(same);
  const next: PreferenceSignal = { ...s, uses: (prior?.uses ?? 0) + 1, lastAt: now };
  return { ...wm, signals: [...wm.signals.filter((x) => !same(x)), next], updatedAt: now };
}

/** 003 "达到阈值的临时偏好信号压缩归档 … 未达阈值的信号直接丢弃": the ones to archive. */
export function signalsToArchive(wm: WritingMemory): PreferenceSignal[] {
  return wm.signals.filter((s) => s.uses >= ARCHIVE_MIN_USES[s.kind]);
}

const LABEL: Record<EntryKind, string> = {
  task: '任务 · task',
  chapter: '章节 · chapter',
  intent: '本次会话意图 · intent',
  output: '近期输出 · recent output',
};
const ORDER: Record<EntryKind, number> = { task: 0, chapter: 1, intent: 2, output: 3 };

/**
 * The block L5 receives (under its "working memory" label): task, chapter, then intents and outputs oldest
 * first. The memory holds up to 8K tokens, more than its share of the Immediate layer: with `maxTokens`,
 * the most important entries that fit are shown (the task always), still in that order. `exclude` leaves
 * out kinds the skill did not ask for (the chapter context of a skill without history).
 */
export function renderWritingMemory(wm: WritingMemory, opts?: { maxTokens: number; counter: TokenCounter; now: number; exclude?: readonly EntryKind[] }): string {
  let entries = wm.entries.filter((e) => !opts?.exclude?.includes(e.kind));
  if (opts) {
    const focus = keywordSet(wm.focus.text);
    let left = opts.maxTokens;
    const chosen = new Set<string>();
    for (const { e } of entries.map((e) => ({ e, score: importance(e, focus, opts.now) })).sort((a, b) => b.score - a.score || b.e.touchedAt - a.e.touchedAt)) {
      const cost = e.tokens + 8;
      if (cost > left && !e.pinned) continue;
      chosen.add(e.id);
      left -= cost;
    }
    entries = entries.filter((e) => chosen.has(e.id));
  }
  const sorted = [...entries].sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  return sorted.map((e) => `- ${LABEL[e.kind]}: ${e.text.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}

const paragraphsOf = (text: string) => text.split(/\n\s*\n|\n/u).map((p) => p.trim()).filter((p) => p !== '');

/**
 * The chapter around the focus, compactly: its title and place, the first sentence of each earlier
 * paragraph (newest last, at most `maxParagraphs`), then the start of the focused paragraph.
 */
export function chapterContext(opts: { title: string; content: string; focusOffset: number; maxParagraphs?: number }): string {
  const before = opts.content.slice(0, Math.max(0, opts.focusOffset));
  const all = paragraphsOf(opts.content);
  const earlier = paragraphsOf(before);
  const at = Math.min(all.length, earlier.length + 1);
  const firsts = earlier.slice(-(opts.maxParagraphs ?? 12)).map((p) => splitSentences(p)[0] ?? p);
  const title = opts.title.trim() || '—';
  return [`《${title}》 ¶${at}/${Math.max(all.length, at)}`, ...firsts].join(' / ');
}
