/**
 * Idempotency keys for writes (engine.ts `applied_ops`): the time in base 36 (fixed width, so ids sort by
 * time) and 64 random bits. Sorted ids keep each new `applied_ops` row on the last page of its b-tree, so a
 * write touches one page for it instead of a random one. Any other string of 8–100 characters still works.
 */
export function newOpId(now: number = Date.now()): string {
  const random = crypto.getRandomValues(new Uint32Array(2));
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${now.toString(36).padStart(9, '0')}-${hex(random[0] ?? 0)}${hex(random[1] ?? 0)}`;
}
