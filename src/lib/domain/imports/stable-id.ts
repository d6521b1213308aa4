/**
 * A short, stable identifier from text (two independent 32-bit FNV-1a lanes → 16 hex digits), so the
 * same source conversation always gets the same Engram id and a second import recognises it. Not a
 * security hash: collisions among one person's conversations are what it must avoid, at ~2^-64 odds.
 */
export function stableKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Conversation ids are at most 100 characters of `[A-Za-z0-9_.:-]`; a source id that fits is kept readable. */
export function conversationId(prefix: string, sourceId: string | null | undefined, fallback: string): string {
  if (sourceId && /^[A-Za-z0-9_.:-]{1,80}$/.test(sourceId)) return `${prefix}-${sourceId}`;
  return `${prefix}-${stableKey(sourceId ?? fallback)}`;
}
