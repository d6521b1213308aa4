/**
 * The selection a skill works on and how its result goes back into the document (seed 004 "选中 → SKILL →
 * diff → 应用"). Offsets are UTF-16 indices, as `textarea.selectionStart/End` report them.
 */
import { SELECTION_PART_MAX_CHARS } from '../../../engine/protocol/contract';

export interface Selection {
  from: number;
  to: number;
  before: string;
  text: string;
  after: string;
}

/** What an accepted result does to the document. `report` (a consistency check) changes nothing. */
export type ApplyMode = 'replace' | 'insert-after' | 'report';

const BUILT_IN_MODES: Record<string, ApplyMode> = {
  continue: 'insert-after',
  polish: 'replace',
  summarize: 'replace',
  'consistency-check': 'report',
};

export function applyModeOf(skill: { id: string; needsSelection: boolean }): ApplyMode {
  return BUILT_IN_MODES[skill.id] ?? (skill.needsSelection ? 'replace' : 'insert-after');
}

/** context.build accepts at most this many characters per part of the selection (the contract's one limit). */
export const MAX_PART = SELECTION_PART_MAX_CHARS;

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Keeps an index off the middle of a surrogate pair. */
function snap(text: string, i: number): number {
  return i > 0 && i < text.length && isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1)) ? i - 1 : i;
}

export function splitSelection(content: string, start: number, end: number): Selection {
  const a = snap(content, Math.max(0, Math.min(start, end, content.length)));
  const b = snap(content, Math.max(a, Math.min(Math.max(start, end), content.length)));
  return { from: a, to: b, before: content.slice(0, a), text: content.slice(a, b), after: content.slice(b) };
}

/**
 * The parts sent to context.build: the text nearest the selection is what the engine keeps
 * (`surrounding` is at most 20 000 code points), so an over-long side loses its far end.
 */
export function selectionForContext(sel: Selection): { before: string; text: string; after: string } {
  const before = sel.before.length > MAX_PART ? sel.before.slice(snap(sel.before, sel.before.length - MAX_PART)) : sel.before;
  const after = sel.after.length > MAX_PART ? sel.after.slice(0, snap(sel.after, MAX_PART)) : sel.after;
  const text = sel.text.length > MAX_PART ? sel.text.slice(0, snap(sel.text, MAX_PART)) : sel.text;
  return { before, text, after };
}

export interface Applied {
  content: string;
  /** Where the result now sits in the document. */
  from: number;
  to: number;
}

/**
 * Puts the final text into the document. Returns null when the selected text is no longer where it
 * was and cannot be found exactly once (the user would not know which occurrence changed).
 */
export function applyResult(opts: { content: string; sel: Pick<Selection, 'from' | 'to' | 'text'>; final: string; mode: ApplyMode }): Applied | null {
  const { content, sel, final, mode } = opts;
  let from = sel.from;
  if (content.slice(sel.from, sel.to) !== sel.text) {
    const first = sel.text === '' ? -1 : content.indexOf(sel.text);
    if (first < 0 || content.indexOf(sel.text, first + 1) >= 0) return null;
    from = first;
  }
  const to = from + sel.text.length;
  if (mode === 'report') return { content, from, to };
  if (mode === 'insert-after') return { content: content.slice(0, to) + final + content.slice(to), from: to, to: to + final.length };
  return { content: content.slice(0, from) + final + content.slice(to), from, to: from + final.length };
}

/** Undo of an accepted result: the original comes back, if the inserted text is still there untouched. */
export function revertResult(opts: { content: string; applied: { from: number; to: number }; final: string; original: string; mode: ApplyMode }): string | null {
  const { content, applied, final, original, mode } = opts;
  if (mode === 'report') return content;
  if (content.slice(applied.from, applied.to) !== final) return null;
  const restored = mode === 'insert-after' ? '' : original;
  return content.slice(0, applied.from) + restored + content.slice(applied.to);
}
