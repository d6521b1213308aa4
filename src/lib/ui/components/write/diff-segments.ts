/**
 * The Write page's diff between the selection and a skill's output (seed 004 "选中 → SKILL → diff → 应用"),
 * as plain segments the view renders as text inside <ins>/<del> — never as HTML built from the text.
 * Latin text is compared word by word (whitespace kept); text with CJK characters, which has no spaces
 * between words, character by character.
 */
import { diffChars, diffWordsWithSpace, type ChangeObject } from 'diff';

export type SegmentKind = 'same' | 'added' | 'removed';

export interface DiffSegment {
  kind: SegmentKind;
  text: string;
}

/** Han, kana, Hangul and full-width punctuation: scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/** Past this much work the diff gives up and shows "all removed, all added" instead of freezing the page. */
const DIFF_TIMEOUT_MS = 200;

function toSegments(changes: readonly ChangeObject<string>[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  for (const c of changes) {
    if (c.value === '') continue;
    const kind: SegmentKind = c.added ? 'added' : c.removed ? 'removed' : 'same';
    const last = out.at(-1);
    // Neighbours of one kind merge, so the view has as few spans as possible.
    if (last && last.kind === kind) last.text += c.value;
    else out.push({ kind, text: c.value });
  }
  return out;
}

export function diffSegments(before: string, after: string): DiffSegment[] {
  if (before === after) return before === '' ? [] : [{ kind: 'same', text: before }];
  const useChars = CJK.test(before) || CJK.test(after);
  const changes = useChars ? diffChars(before, after, { timeout: DIFF_TIMEOUT_MS }) : diffWordsWithSpace(before, after, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) {
    return toSegments([
      { value: before, removed: true, added: false, count: 1 },
      { value: after, added: true, removed: false, count: 1 },
    ]);
  }
  return toSegments(changes);
}

/** Rebuilds either side from the segments (the invariant the tests check). */
export function sideOf(segments: readonly DiffSegment[], side: 'before' | 'after'): string {
  const skip: SegmentKind = side === 'before' ? 'added' : 'removed';
  return segments
    .filter((s) => s.kind !== skip)
    .map((s) => s.text)
    .join('');
}
