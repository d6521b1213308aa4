import type { SqlDriver } from '../store/driver';
import type { TraceReference } from './types';

/** Where each kind of referenced item lives, and the condition under which it still counts as there. */
const LOOKUP: Partial<Record<TraceReference['type'], { prefix: string; sql: string }>> = {
  semantic: { prefix: 'preference:', sql: "SELECT 1 FROM semantic_rules WHERE id = ? AND status = 'active'" },
  memory: { prefix: 'memory:', sql: 'SELECT 1 FROM memories WHERE id = ?' },
  episode: { prefix: 'episode:', sql: 'SELECT 1 FROM episodes WHERE id = ?' },
};

/**
 * 003 异常与边界 "trace 失配": a run's trace names items that may since have been deleted, forgotten or
 * cleared. Each such reference comes back marked `gone` (the trace itself is history and stays as it
 * was); built-in defaults (`preference:default:…`) were never stored and are not marked.
 */
export function markGone(driver: SqlDriver, refs: readonly TraceReference[]): TraceReference[] {
  return refs.map((ref) => {
    const lookup = LOOKUP[ref.type];
    if (!lookup || !ref.id.startsWith(lookup.prefix) || ref.id.startsWith('preference:default:')) return ref;
    const there = driver.get(lookup.sql, [ref.id.slice(lookup.prefix.length)]) !== undefined;
    return there ? ref : { ...ref, gone: true };
  });
}
