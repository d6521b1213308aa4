/**
 * Sources of the dynamic layers L4 (retrieved) and L5 (immediate), seed 004 with seed 000's parts mapped
 * in (ARCHITECTURE §6): 000 [3] memories and [4] recent session summaries go to L4, the rolling window
 * of this conversation to L5. L4 items are in rank order — what matters most first, since the budget
 * keeps earlier items: memories, this conversation's older history (compact first), other
 * conversations' recall hits, recent session summaries.
 */
import { PROMPT_WORDS, trimToTokens, type ContextItem, type PromptLanguage } from '../../domain/context';
import { rollingWindow } from '../../domain/conversation/window';
import type { Message, Summary, WorkingMemory } from '../../domain/conversation/types';
import type { TokenCounter } from '../../domain/text/tokens';
import type { RecallHit } from '../recall/types';
import type { SessionSummaryRow } from '../store/context-query';
import type { RetrievedForContext } from './memory-port';

export function memoryItems(found: readonly RetrievedForContext[]): ContextItem[] {
  return found.map((m) => ({ id: `memory:${m.id}`, kind: 'memory', text: m.content }));
}

/**
 * This conversation's summaries of turns older than the window: compact summaries, then the rolling
 * summaries no compact covers (004 "后续注入 SHOULD 优先使用 Compact"), newest first.
 */
export function historyItems(all: readonly Summary[], firstWindowTurn: number): ContextItem[] {
  const compacts = all.filter((s) => s.kind === 'compact');
  const covered = (s: Summary) => compacts.some((c) => c.startTurn <= s.startTurn && s.endTurn <= c.endTurn);
  const older = all.filter((s) => s.endTurn < firstWindowTurn && (s.kind === 'compact' || !covered(s)));
  return older
    .sort((a, b) => b.endTurn - a.endTurn || (a.kind === 'compact' ? -1 : 1))
    .map((s) => ({
      id: `summary:${s.id}`,
      kind: s.kind === 'compact' ? 'compact' : 'rolling-summary',
      text: s.summary,
      meta: { startTurn: s.startTurn, endTurn: s.endTurn },
    }));
}

/** 002 recall across other conversations, only hits relevant enough, each cut to a short excerpt. */
export function recallItems(hits: readonly RecallHit[], opts: { minRelevance: number; counter: TokenCounter }): ContextItem[] {
  return hits
    .filter((h) => h.relevance >= opts.minRelevance)
    .map((h) => {
      const body = trimToTokens(h.isSummary ? (h.summary ?? '') : (h.content ?? ''), 160, opts.counter);
      const item: ContextItem = {
        id: h.isSummary ? `recall:summary:${h.summaryId}` : `recall:turn:${h.turnId}`,
        kind: 'summary',
        text: body,
        meta: { title: h.sessionTitle || '—', conversationId: h.conversationId, createdAt: h.createdAt, ...(h.role ? { role: h.role } : {}) },
      };
      return item;
    })
    .filter((i) => i.text.trim() !== '');
}

/** 000 [4]: title and snippet of the most recent other conversations. */
export function sessionSummaryItems(rows: readonly SessionSummaryRow[]): ContextItem[] {
  return rows
    .filter((r) => r.snippet.trim() !== '' || r.title.trim() !== '')
    .map((r) => ({ id: `session:${r.id}`, kind: 'session-summary', text: r.snippet.trim() || r.title, meta: { title: r.title || '—' } }));
}

/**
 * 000 "滚动窗口管理": the last messages of the conversation, at most `contextLimit`, whole turns leaving
 * from the oldest end. `exclude` is the just-stored user message (it is the task, sent as `message`).
 */
export function windowTurns(recent: readonly Message[], opts: { contextLimit: number; exclude?: number }): Message[] {
  const usable = recent.filter((m) => m.id !== opts.exclude && m.status !== 'failed' && m.content.trim() !== '');
  return rollingWindow(usable, opts.contextLimit).kept;
}

export function turnItems(turns: readonly Message[]): ContextItem[] {
  return turns.map((m) => ({ id: `turn:${m.id}`, kind: 'turn', text: m.content, meta: { role: m.role, createdAt: m.createdAt } }));
}

/** 001 working memory as one labelled block in the prompt's language; nothing when it holds nothing yet. */
export function workingMemoryItems(wm: WorkingMemory | undefined, lang: PromptLanguage): ContextItem[] {
  if (!wm) return [];
  const w = PROMPT_WORDS[lang].workingMemory;
  const colon = lang === 'zh' ? '：' : ': ';
  const lines: string[] = [];
  if (wm.currentTopic) lines.push(`${w.topic}${colon}${wm.currentTopic}`);
  const vars = Object.entries(wm.contextVariables);
  if (vars.length > 0) lines.push(`${w.variables}${colon}${vars.map(([k, v]) => `${k}=${v}`).join('; ')}`);
  if (wm.lastEmotion && wm.lastEmotion !== 'neutral') lines.push(`${w.emotion}${colon}${wm.lastEmotion}`);
  return lines.length === 0 ? [] : [{ id: 'working-memory', kind: 'working-memory', text: lines.join('\n') }];
}

/** The task: the selection with what surrounds it (trimmed later by the rules), then the message. */
export function taskItems(opts: { message: string; selection?: { before: string; text: string; after: string } }): ContextItem[] {
  const items: ContextItem[] = [];
  const sel = opts.selection;
  if (sel) {
    if (sel.before.trim() !== '') items.push({ id: 'surround:before', kind: 'surrounding', text: sel.before, meta: { side: 'before' } });
    if (sel.text.trim() !== '') items.push({ id: 'selection', kind: 'selection', text: sel.text });
    if (sel.after.trim() !== '') items.push({ id: 'surround:after', kind: 'surrounding', text: sel.after, meta: { side: 'after' } });
  }
  items.push({ id: 'message', kind: 'message', text: opts.message });
  return items;
}
