import { v5 as nameBasedUuid } from 'uuid';
import type { IdGen } from './clock';

/**
 * Ids for the rows a write creates, derived from the write's op id while it runs: the same write applied again
 * (re-sent after a leader hand-over, drained twice from the outbox) creates the same ids, so whatever refers to
 * them — a message appended to a conversation the write before created — still does. Other ids come from
 * `fallback`.
 *
 *   during(opId, write) ─▶ next() = idFromOp(opId, 1), idFromOp(opId, 2), …
 */
export function opScopedIds(fallback: IdGen): { next: IdGen; during<T>(opId: string | undefined, fn: () => T): T } {
  let scope: { opId: string; n: number } | null = null;
  return {
    next: () => (scope ? idFromOp(scope.opId, ++scope.n) : fallback()),
    during(opId, fn) {
      if (!opId) return fn();
      const outer = scope;
      scope = { opId, n: 0 };
      try {
        return fn();
      } finally {
        scope = outer;
      }
    },
  };
}

/** Engram's namespace for name-based ids (RFC 9562 UUID version 5). */
const NAMESPACE = 'c1a7e0d2-5b8f-4e27-9d3a-6f0e2b9c4a11';

/** The n-th id a write with this op id creates: a version-5 UUID of `opId#n`. */
export const idFromOp = (opId: string, n: number): string => nameBasedUuid(`${opId}#${n}`, NAMESPACE);
