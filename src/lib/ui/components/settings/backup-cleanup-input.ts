import type { Input } from '../../../engine/protocol/contract';

/**
 * The cleanup form's state → the `cleanup.run` input (002 memory_cleanup), or null while it cannot run:
 * days outside 1…36,500, no conversation chosen, or "everything" without the typed confirmation word
 * (compared without case or surrounding spaces). Deleting everything also sends `confirm: true`, which
 * the engine requires (MEMORY_CLEAR_CONFIRM_REQUIRED otherwise).
 */
export type CleanupChoice = { mode: 'older' | 'session' | 'all'; days: number; sessionId: string; typed: string; word: string };

export function cleanupInput(c: CleanupChoice): Input<'cleanup.run'> | null {
  if (c.mode === 'older') return Number.isInteger(c.days) && c.days >= 1 && c.days <= 36_500 ? { olderThanDays: c.days } : null;
  if (c.mode === 'session') return c.sessionId ? { sessionId: c.sessionId } : null;
  return c.typed.trim().toLowerCase() === c.word.trim().toLowerCase() ? { all: true, confirm: true } : null;
}
