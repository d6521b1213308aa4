import type { HistoryActor } from '../../../engine/store/memory-rows';
import type { MemoryOrigin } from '../../../engine/memory/types';

/** Confidence (0..1) as a whole percentage in the reader's language: 0.87 → "87%". */
export function formatPercent(value: number, locale: string): string {
  if (!Number.isFinite(value)) return '—';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(value);
}

/** Scores are 0..1.3; three decimals show the small terms (frequency × 0.1) without rounding them away. */
export function formatScore(value: number, locale: string): string {
  if (!Number.isFinite(value)) return '—';
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(value);
}

/** Who made a change, as the page names it: you, the extractor (learned from a conversation), an import, Engram. */
export type ActorLabel = 'you' | 'learned' | 'import' | 'system';

export function actorLabel(actor: HistoryActor | null): ActorLabel {
  switch (actor) {
    case 'user':
      return 'you';
    case 'extractor':
      return 'learned';
    case 'import':
      return 'import';
    default:
      return 'system';
  }
}

/** The chat link of the message a memory was learned from; null when its conversation is gone. */
export function originHref(origin: MemoryOrigin | null): string | null {
  if (!origin || origin.sessionTitle === null) return null;
  const params = new URLSearchParams({ session: origin.sessionId });
  if (origin.messageExists && origin.messageId !== null) params.set('message', String(origin.messageId));
  return `/chat?${params.toString()}`;
}

/**
 * The clear-all dialog asks the person to type a word ("delete" / "删除"). Width and case variants of the
 * same word count (a full-width IME, Caps Lock); anything else does not.
 */
export function matchesConfirmWord(typed: string, word: string): boolean {
  const norm = (s: string) => s.normalize('NFKC').trim().toLocaleLowerCase();
  return norm(word) !== '' && norm(typed) === norm(word);
}

/** JSON pretty-printed for reading and editing (two-space indent); a value JSON cannot show stays readable. */
export function formatJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Fixed reason codes of memory and profile history (never user text) → their message key. */
const REASONS = {
  manual: 'manual',
  edit: 'edit',
  undo: 'undo',
  restore: 'restore',
  'restore-version': 'restoreVersion',
  extract: 'extract',
  'extract:add': 'extractAdd',
  'extract:update': 'extractUpdate',
  'extract:supersede': 'extractSupersede',
  superseded: 'superseded',
  retracted: 'retracted',
  import: 'import',
  'memory-delete': 'memoryDelete',
  'memory-undo': 'memoryUndo',
  'memory-restore': 'memoryRestore',
  'memory-edit': 'memoryEdit',
  'memory-clear': 'memoryClear',
} as const;

export type ReasonKey = (typeof REASONS)[keyof typeof REASONS];

/** A reason code's message key; null for a code this page has no words for (it then shows the code). */
export function reasonKey(code: string | null): ReasonKey | null {
  return code !== null && Object.hasOwn(REASONS, code) ? REASONS[code as keyof typeof REASONS] : null;
}
