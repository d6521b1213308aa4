/**
 * At most `max` characters (code points, so a CJK character or an emoji is never cut in half); a longer
 * text keeps its first `max - 1` and ends with "…". The one clip for titles, excerpts and prompts.
 */
export function clipChars(text: string, max: number): string {
  if (text.length <= max) return text; // UTF-16 length ≥ code points: short enough already
  const cps = Array.from(text);
  return cps.length <= max ? text : `${cps.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Whitespace runs become one space, the ends are trimmed, then {@link clipChars}. */
export function clipFlat(text: string, max: number): string {
  return clipChars(text.replace(/\s+/gu, ' ').trim(), max);
}
